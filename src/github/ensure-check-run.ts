// One completed check run per target on a commit, named `undrift/<target>`:
// found by name among the commit's latest check runs, created when there is
// none, updated only when what it says changed. What it says is hashed into
// `external_id`, so "changed" never depends on how GitHub echoes the text back.

import type { CheckConclusion, CheckRunOutput } from "../report/check-run-output.ts";
import { capText, checkRunTextLimit, digestOf } from "../report/markers.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";
import { createWrites, type WriteRecord } from "./github-writes.ts";

export interface EnsureCheckRunParams extends RepoRef {
  octokit: GitHubClient;
  /** The check's name, `undrift/<target>` (see checkRunName). */
  name: string;
  headSha: string;
  /** Ignored while `status` is in_progress. */
  conclusion: CheckConclusion;
  output: CheckRunOutput;
  /**
   * in_progress: results are still coming (a preview waits for other clusters).
   * Written only where no run is completed yet: a completed run stays until the
   * next completed answer replaces it. Default completed.
   */
  status?: "in_progress" | "completed";
  detailsUrl?: string;
  /** Only this app's check runs are considered ours (GitHub's `app_id` filter); leave out when the token is the app's own. */
  appId?: number;
  dryRun?: boolean;
}

export interface CheckRunResult {
  action: "created" | "updated" | "unchanged";
  dryRun: boolean;
  /** Absent only when a dry run would create it. */
  id?: number;
  url?: string;
  writes: WriteRecord[];
}

const maxAnnotations = 50;

/** `undrift/infra`: the check run name for a target. */
export function checkRunName(target: string): string {
  return `undrift/${target}`;
}

export async function ensureCheckRun(params: EnsureCheckRunParams): Promise<CheckRunResult> {
  const { name, headSha } = params;
  const writes = createWrites(params);
  const output = cappedOutput(params.output);
  const inProgress = params.status === "in_progress";
  const externalId = `undrift:${digestOf(inProgress ? "in_progress" : params.conclusion, output.title, output.summary, output.text, params.detailsUrl, JSON.stringify(output.annotations ?? []))}`;
  const short = headSha.slice(0, 7);

  const existing = await findRun(params);

  // The description types check run ids as number | bigint; GitHub's are well within a double.
  const result = (
    action: CheckRunResult["action"],
    run?: { id: number | bigint; html_url: string | null },
  ): CheckRunResult => ({
    action,
    dryRun: writes.dryRun,
    ...(run ? { id: Number(run.id), ...(run.html_url ? { url: run.html_url } : {}) } : {}),
    writes: writes.records,
  });

  if (existing && existing.status === "completed" && existing.external_id === externalId) {
    return result("unchanged", existing);
  }
  if (inProgress && existing && (existing.status === "completed" || existing.external_id === externalId)) {
    return result("unchanged", existing);
  }
  const body = {
    ...(inProgress
      ? { status: "in_progress" as const }
      : { status: "completed" as const, conclusion: params.conclusion }),
    external_id: externalId,
    ...(params.detailsUrl ? { details_url: params.detailsUrl } : {}),
  };
  if (existing) {
    // Annotations are appended on every update, so they are sent only to a run that has none yet.
    const keepAnnotations = existing.output.annotations_count === 0;
    const updated = await writes.request(
      "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
      { check_run_id: Number(existing.id), ...body, output: apiOutput(output, keepAnnotations) },
      { summary: `update check run ${name} on ${short}` },
    );
    return result("updated", updated ?? existing);
  }
  const created = await writes.request(
    "POST /repos/{owner}/{repo}/check-runs",
    { name, head_sha: headSha, ...body, output: apiOutput(output, true) },
    { summary: `create check run ${name} on ${short}` },
  );
  return result("created", created);
}

/** This name's latest run on the commit, if any (of this app only, given `appId`). */
async function findRun(params: EnsureCheckRunParams) {
  const { octokit, owner, repo, name, headSha } = params;
  return githubStep({
    repo: params,
    step: `find check run ${name} on ${headSha.slice(0, 7)}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", {
        owner,
        repo,
        ref: headSha,
        check_name: name,
        filter: "latest",
        ...(params.appId === undefined ? {} : { app_id: params.appId }),
      });
      return data.check_runs.find((run) => run.name === name);
    },
  });
}

function cappedOutput(output: CheckRunOutput): CheckRunOutput {
  const capped: CheckRunOutput = {
    title: capText({ text: output.title, maxLength: checkRunTextLimit }),
    summary: capText({ text: output.summary, maxLength: checkRunTextLimit }),
  };
  if (output.text !== undefined) capped.text = capText({ text: output.text, maxLength: checkRunTextLimit });
  if (output.annotations?.length) capped.annotations = output.annotations.slice(0, maxAnnotations);
  return capped;
}

function apiOutput(output: CheckRunOutput, withAnnotations: boolean) {
  return {
    title: output.title,
    summary: output.summary,
    ...(output.text === undefined ? {} : { text: output.text }),
    ...(withAnnotations && output.annotations
      ? {
          annotations: output.annotations.map((a) => ({
            path: a.path,
            start_line: a.startLine,
            end_line: a.endLine ?? a.startLine,
            annotation_level: a.level,
            message: a.message,
            ...(a.title ? { title: a.title } : {}),
          })),
        }
      : {}),
  };
}
