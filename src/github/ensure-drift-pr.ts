// One pull request per (target, mode) on the fixed branch
// `undrift/<mode>/<target>`. Its body starts with
// `<!-- undrift:pr target=<name> mode=<mode> fingerprint=<fp> -->`; a later
// scan with the same drift fingerprint reads one page and writes nothing.
// Otherwise the files are committed through the Git Data API on the base
// commit, the branch is created or force-moved to it, and the PR is opened
// (with labels and reviewers) or retitled in place.
//
// Requests for N changed files, B of them over 512 KiB or not UTF-8 (a blob
// each; codify's YAML never is): same fingerprint 1, no write. Create 5 + B
// (list, tree, commit, branch, PR), +1 base lookup unless `base.sha` and
// `base.treeSha` are given, +1 labels, +1 reviewers. Update 4 + B (+1 base).
// So a create costs at most N+6 when B = 0 and the base is given (headIfChanged
// returns both) or N >= 2.

import { UndriftError } from "../model/undrift-error.ts";
import type { FileChange } from "../remediate/codify/codify-result.ts";
import { formatMarker, readMarker, withMarker } from "../report/markers.ts";
import { commitFiles } from "./commit-files.ts";
import { type DriftPrMode, driftBranch, type FoundPr, findDriftPr } from "./find-drift-pr.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";
import { createWrites, type WriteRecord } from "./github-writes.ts";
import { openDriftPr } from "./open-drift-pr.ts";
import { pointBranch } from "./point-branch.ts";
import { updateDriftPr } from "./update-drift-pr.ts";

export interface EnsureDriftPrParams extends RepoRef {
  octokit: GitHubClient;
  target: string;
  mode: DriftPrMode;
  /** The drift report's fingerprint: the same value means the same drift, and nothing is written. */
  fingerprint: string;
  /**
   * The branch the PR targets and the commit to build on. Pass the revision the
   * scan read (and its tree, from headIfChanged), so the edits apply to the text
   * they were computed from; without `sha` the branch head is looked up.
   */
  base: { branch: string; sha?: string; treeSha?: string };
  /** What the commit changes; `after` absent deletes the file. */
  files: FileChange[];
  title: string;
  body: string;
  commitMessage?: string;
  /** Added when the PR is opened; later scans leave labels and reviewers to people. */
  labels?: string[];
  /** Logins, or `org/team` for a team. */
  reviewers?: string[];
  dryRun?: boolean;
  /** The open PR when the caller has already looked it up (undefined: there is none), saving the lookup. */
  found?: { pr: FoundPr | undefined };
}

export interface DriftPrResult {
  action: "created" | "updated" | "unchanged";
  dryRun: boolean;
  branch: string;
  /** Absent only when a dry run would open it. */
  number?: number;
  url?: string;
  /** The commit the branch points to after a write (a placeholder in a dry run). */
  commitSha?: string;
  writes: WriteRecord[];
  /** What could not be done but does not undo the PR: a reviewer who is not a collaborator, a label refused. */
  warnings: string[];
}

/** Thrown before any request when there is nothing to commit: a drift PR without changes would be empty. */
export class EmptyDriftPrError extends UndriftError {
  override name = "EmptyDriftPrError";
  // Retried, as before the flag: the next scan may find file changes.
  readonly permanent = false;
}

export async function ensureDriftPr(params: EnsureDriftPrParams): Promise<DriftPrResult> {
  const { owner, repo, target, mode } = params;
  const branch = driftBranch({ target, mode });
  if (params.files.length === 0) {
    throw new EmptyDriftPrError(`${owner}/${repo}: ${branch}: no file changes to propose for target ${target}`);
  }
  const writes = createWrites(params);
  const warnings: string[] = [];
  const result = (action: DriftPrResult["action"], pr?: { number: number; html_url: string }, commitSha?: string) => ({
    action,
    dryRun: writes.dryRun,
    branch,
    ...(pr ? { number: pr.number, url: pr.html_url } : {}),
    ...(commitSha ? { commitSha } : {}),
    writes: writes.records,
    warnings,
  });

  // 1. The open PR, if any; the same drift means nothing to write.
  const existing = params.found ? params.found.pr : await findDriftPr(params);
  if (existing && readMarker(existing.body, "pr")?.fingerprint === params.fingerprint)
    return result("unchanged", existing);

  // 2. One commit with the files on the base commit, and the branch pointed at it.
  const base = await resolveBase(params);
  const message = params.commitMessage ?? `undrift: ${mode} drift of ${target}`;
  const commitSha = await commitFiles({ writes, base, files: params.files, message });
  await pointBranch({ writes, branch, sha: commitSha, exists: existing !== undefined });
  // 3. The PR: retitled in place, or opened with labels and reviewers.
  const marker = formatMarker("pr", { target, mode, fingerprint: params.fingerprint });
  const body = withMarker({ marker, body: params.body });
  if (existing) {
    const { title } = params;
    const base = existing.base.ref !== params.base.branch ? params.base.branch : undefined;
    await updateDriftPr({ writes, number: existing.number, title, body, base });
    return result("updated", existing, commitSha);
  }
  const opened = await openDriftPr({
    ...params,
    writes,
    baseBranch: params.base.branch,
    body,
    warnings,
  });
  return result("created", opened, commitSha);
}

/** The commit to build on and its tree: given, or read in one request. */
async function resolveBase(params: EnsureDriftPrParams): Promise<{ sha: string; treeSha: string }> {
  const { octokit, owner, repo, base } = params;
  if (base.sha && base.treeSha) return { sha: base.sha, treeSha: base.treeSha };
  if (base.sha) {
    const sha = base.sha;
    return githubStep({
      repo: params,
      step: `read base commit ${sha.slice(0, 7)}`,
      run: async () => {
        const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", {
          owner,
          repo,
          commit_sha: sha,
        });
        return { sha, treeSha: data.tree.sha };
      },
    });
  }
  return githubStep({
    repo: params,
    step: `read base branch ${base.branch}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/branches/{branch}", {
        owner,
        repo,
        branch: base.branch,
      });
      return { sha: data.commit.sha, treeSha: data.commit.commit.tree.sha };
    },
  });
}
