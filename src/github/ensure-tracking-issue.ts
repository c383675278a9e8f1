// One tracking issue per target (warn and heal modes), found by the hidden
// marker `<!-- undrift:tracking target=<name> digest=<hash> -->` on its first
// line: created when drift appears, edited only when what it says changed,
// closed with a comment when the drift is gone, reopened when it returns.

import { digestOf, driftGoneComment, formatMarker, readMarker, withMarker } from "../report/markers.ts";
import { commentThenClose } from "./comment-then-close.ts";
import { type FoundIssue, findTrackingIssue } from "./find-tracking-issue.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
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
  /** The number the target's tracking issue had at its last scan: read directly once the list is past a page. */
  known?: number;
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
  const { target } = params;
  const writes = createWrites(params);
  const { issue, duplicates } = await findTrackingIssue(params);
  const result = (action: TrackingIssueResult["action"], found?: { number: number; html_url: string }) => ({
    action,
    dryRun: writes.dryRun,
    ...(found ? { number: found.number, url: found.html_url } : {}),
    writes: writes.records,
  });
  // Listed in `writes`; `action` speaks of the issue kept.
  for (const duplicate of duplicates) {
    const n = duplicate.number;
    const comment = `Duplicate of #${issue?.number ?? 0}: undrift keeps one tracking issue per target (\`${target}\`).`;
    const close = { issue: n, reason: "not_planned" as const };
    await commentThenClose({ writes, close, name: `duplicate tracking issue #${n}`, of: ` of ${target}`, comment });
  }

  if (!params.drift) {
    if (issue?.state !== "open") return result("unchanged", issue);
    const n = issue.number;
    const comment =
      params.closeComment ?? driftGoneComment({ target, ...(params.revision ? { revision: params.revision } : {}) });
    const close = { issue: n, reason: "completed" as const };
    await commentThenClose({
      writes,
      close,
      name: `tracking issue #${n}`,
      of: ` of ${target}`,
      why: ": drift gone",
      comment,
    });
    return result("closed", issue);
  }

  const { title } = params.drift;
  const digest = digestOf(title, params.drift.body);
  const body = withMarker({ marker: formatMarker("tracking", { target, digest }), body: params.drift.body });
  const labels = params.labels ?? [];

  if (!issue) {
    const created = await writes.request(
      "POST /repos/{owner}/{repo}/issues",
      { title, body, ...(labels.length ? { labels } : {}) },
      { summary: `open tracking issue for ${target}` },
    );
    return result("created", created);
  }

  const open = issue.state === "open";
  if (open && issue.title === title && readMarker(issue.body, "tracking")?.digest === digest)
    return result("unchanged", issue);
  await editIssue({ writes, issue, target, title, body, labels });
  return result(open ? "updated" : "reopened", issue);
}

/** Retitles the issue, reopening it when closed; the labels of ours that people removed are put back. */
async function editIssue(params: {
  writes: Writes;
  issue: FoundIssue;
  target: string;
  title: string;
  body: string;
  labels: string[];
}) {
  const { writes, issue, target, title, body } = params;
  const open = issue.state === "open";
  const present = new Set(issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))));
  const missing = params.labels.filter((l) => !present.has(l));
  const n = issue.number;
  const verb = open ? "update" : "reopen";
  await writes.request(
    "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
    {
      issue_number: n,
      title,
      body,
      ...(open ? {} : { state: "open" as const }),
      // PATCH replaces the label set: keep what people added, put back ours.
      ...(missing.length ? { labels: [...present, ...missing] } : {}),
    },
    { summary: `${verb} tracking issue #${n} of ${target}`, step: `${verb} tracking issue #${n}` },
  );
}
