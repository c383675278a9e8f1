// The warn side of a scan: the target's one tracking issue, opened or edited
// while there is drift (with the report), closed with a comment when it is
// gone. The issue names the revision its drift was first seen at, so a push
// that leaves the drift as it was leaves the issue alone too.
import type { DriftReport } from "../model/types.ts";
import { renderMarkdown } from "../report/render-markdown.ts";
import { hasDrift } from "../report/summary-line.ts";
import { ensureTrackingIssue, type TrackingIssueResult } from "./ensure-tracking-issue.ts";
import type { GitHubClient } from "./github-client.ts";

// Under GitHub's 65,536 body limit, with room for the marker and the intro.
const BODY_LIMIT = 63_000;

export async function ensureTargetIssue(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  report: DriftReport;
  cluster: string;
  mode: string;
  /** The revision to name: where this drift was first seen. */
  shownRevision: string;
  /** Markdown sections between the intro and the report: what heal did. */
  sections?: string[];
  /** The dashboard (report/app/dashboard-body.ts), between the sections and the report, already within its budget. */
  dashboard?: string;
  creator?: string;
  /** The number of the target's tracking issue at its last scan (findTrackingIssue). */
  known?: number;
}): Promise<TrackingIssueResult> {
  const { report } = params;
  let drift: { title: string; body: string } | null = null;
  if (hasDrift(report)) {
    const sections = [...(params.sections ?? []), ...(params.dashboard ? [params.dashboard] : [])]
      .map((section) => `${section}\n\n`)
      .join("");
    const parts = renderMarkdown(
      { ...report, revision: params.shownRevision },
      { maxLength: Math.max(BODY_LIMIT - sections.length, 10_000) },
    );
    const more =
      parts.length > 1
        ? `\n\n_${parts.length - 1} more part(s) of the report are in the check run \`undrift/${report.target}\`._`
        : "";
    const intro = [
      `The cluster \`${params.cluster}\` has drifted from Git for target \`${report.target}\` (mode \`${params.mode}\`).`,
      "undrift keeps this issue up to date while the drift lasts and closes it when the cluster matches Git again.",
    ].join(" ");
    drift = {
      title: `undrift: ${report.target} has drifted from Git on ${params.cluster}`,
      body: `${intro}\n\n${sections}${parts[0] ?? ""}${more}`,
    };
  }
  return ensureTrackingIssue({
    octokit: params.octokit,
    owner: params.owner,
    repo: params.repo,
    target: report.target,
    drift,
    revision: report.revision,
    ...(params.creator ? { creator: params.creator } : {}),
    ...(params.known !== undefined ? { known: params.known } : {}),
  });
}
