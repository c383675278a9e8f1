// One tracking issue per target (warn and heal modes), found by the hidden
// marker `<!-- undrift:tracking target=<name> digest=<hash> -->` on its first
// line: created when drift appears, edited only when what it says changed,
// closed with a comment when the drift is gone, reopened when it returns.

import { digestOf, driftGoneComment, formatMarker, readMarker, withMarker } from "../report/markers.ts";
import { findTrackingIssue } from "./find-tracking-issue.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";
import { createWrites, type WriteRecord, type Writes } from "./github-writes.ts";

export interface EnsureTrackingIssueParams extends RepoRef {
  octokit: GitHubClient;
  target: string;
  /** What the issue says while there is drift; null when there is none, which closes it. */
  drift: { title: string; body: string } | null;
  /** Set on creation, and added back when the issue is next edited or reopened. */
  labels?: string[];
  /**
   * Only issues opened by this login are considered (the app's bot, `<slug>[bot]`):
   * the lookup stays one page, and nobody else's issue is taken for ours.
   */
  creator?: string;
  /** The comment posted before closing; a default names the target and revision. */
  closeComment?: string;
  /** The revision the scan saw, for the default closing comment. */
  revision?: string;
  dryRun?: boolean;
}

export interface TrackingIssueResult {
  action: "created" | "updated" | "unchanged" | "closed" | "reopened";
  dryRun: boolean;
  /** Absent when there is no issue (no drift, none found) or a dry run would create it. */
  number?: number;
  url?: string;
  writes: WriteRecord[];
}

export async function ensureTrackingIssue(params: EnsureTrackingIssueParams): Promise<TrackingIssueResult> {
  const { octokit, owner, repo, target } = params;
  const writes = createWrites({ dryRun: params.dryRun });
  const { issue, duplicates } = await findTrackingIssue(params);
  const result = (action: TrackingIssueResult["action"], found?: { number: number; html_url: string }) => ({
    action,
    dryRun: writes.dryRun,
    ...(found ? { number: found.number, url: found.html_url } : {}),
    writes: writes.records,
  });
  const step = (what: string, run: () => Promise<unknown>) => githubStep({ repo: params, step: what, run });
  // Listed in `writes`; `action` speaks of the issue kept.
  for (const duplicate of duplicates) await closeDuplicate({ ...params, writes, duplicate, of: issue?.number ?? 0 });

  if (!params.drift) {
    if (issue?.state !== "open") return result("unchanged", issue);
    const n = issue.number;
    const comment =
      params.closeComment ?? driftGoneComment({ target, ...(params.revision ? { revision: params.revision } : {}) });
    await writes.write(
      {
        route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        summary: `comment on tracking issue #${n} of ${target}: drift gone`,
      },
      () =>
        step(`comment on tracking issue #${n}`, () =>
          octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
            owner,
            repo,
            issue_number: n,
            body: comment,
          }),
        ),
    );
    await writes.write(
      {
        route: "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
        summary: `close tracking issue #${n} of ${target}`,
      },
      () =>
        step(`close tracking issue #${n}`, () =>
          octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
            owner,
            repo,
            issue_number: n,
            state: "closed",
            state_reason: "completed",
          }),
        ),
    );
    return result("closed", issue);
  }

  const { title } = params.drift;
  const digest = digestOf(title, params.drift.body);
  const body = withMarker({ marker: formatMarker("tracking", { target, digest }), body: params.drift.body });
  const labels = params.labels ?? [];

  if (!issue) {
    const created = await writes.write(
      { route: "POST /repos/{owner}/{repo}/issues", summary: `open tracking issue for ${target}` },
      () =>
        githubStep({
          repo: params,
          step: `open tracking issue for ${target}`,
          run: () =>
            octokit.request("POST /repos/{owner}/{repo}/issues", {
              owner,
              repo,
              title,
              body,
              ...(labels.length ? { labels } : {}),
            }),
        }),
    );
    return result("created", created?.data);
  }

  const open = issue.state === "open";
  if (open && issue.title === title && readMarker(issue.body, "tracking")?.digest === digest)
    return result("unchanged", issue);
  const present = new Set(issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))));
  const missing = labels.filter((l) => !present.has(l));
  const n = issue.number;
  const action = open ? "updated" : "reopened";
  await writes.write(
    {
      route: "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
      summary: `${open ? "update" : "reopen"} tracking issue #${n} of ${target}`,
    },
    () =>
      step(`${open ? "update" : "reopen"} tracking issue #${n}`, () =>
        octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
          owner,
          repo,
          issue_number: n,
          title,
          body,
          ...(open ? {} : { state: "open" as const }),
          // PATCH replaces the label set: keep what people added, put back ours.
          ...(missing.length ? { labels: [...present, ...missing] } : {}),
        }),
      ),
  );
  return result(action, issue);
}

/** Closes a second open issue of the same target, pointing at the one kept. */
async function closeDuplicate(
  params: EnsureTrackingIssueParams & { writes: Writes; duplicate: { number: number }; of: number },
) {
  const { octokit, owner, repo, writes, target } = params;
  const n = params.duplicate.number;
  const body = `Duplicate of #${params.of}: undrift keeps one tracking issue per target (\`${target}\`).`;
  await writes.write(
    {
      route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      summary: `comment on duplicate tracking issue #${n} of ${target}`,
    },
    () =>
      githubStep({
        repo: params,
        step: `comment on duplicate tracking issue #${n}`,
        run: () =>
          octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
            owner,
            repo,
            issue_number: n,
            body,
          }),
      }),
  );
  await writes.write(
    {
      route: "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
      summary: `close duplicate tracking issue #${n} of ${target}`,
    },
    () =>
      githubStep({
        repo: params,
        step: `close duplicate tracking issue #${n}`,
        run: () =>
          octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", {
            owner,
            repo,
            issue_number: n,
            state: "closed",
            state_reason: "not_planned",
          }),
      }),
  );
}
