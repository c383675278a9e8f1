// The warn side of a scan (and heal's report, see heal-drift.ts): the target's
// tracking issue, naming the revision its drift was first seen at, so a push
// that leaves the drift as it was leaves the issue alone too. The issue is
// also the target's dashboard: boxes to act on each object (dashboard/).
import type { TargetConfig } from "../../config/schema.ts";
import type { Renderer } from "../../desired/render-target.ts";
import { botLogin } from "../../github/bot-login.ts";
import { ensureTargetIssue } from "../../github/ensure-target-issue.ts";
import type { GitHubClient } from "../../github/github-client.ts";
import { targetKey } from "../../model/target-key.ts";
import type { DriftReport } from "../../model/types.ts";
import { hasDrift } from "../../report/summary-line.ts";
import { trackingIssueNumbers } from "../../state/tracking-issue-numbers.ts";
import type { ModeDeps } from "../mode-deps.ts";
import type { ModeResult } from "../mode-result.ts";
import { firstSeenRevision } from "./first-seen-revision.ts";
import { issueDashboard } from "./issue-dashboard.ts";

const EVENTS = {
  created: "issue-opened",
  updated: "issue-updated",
  reopened: "issue-reopened",
  closed: "issue-closed",
} as const;

export async function warnDrift(params: {
  deps: ModeDeps;
  octokit: GitHubClient;
  owner: string;
  repo: string;
  report: DriftReport;
  target: TargetConfig;
  /** Markdown sections to put above the report (what heal did). */
  sections?: string[];
  /** The renderer the target used: helm output gets no codify boxes. */
  renderer: Renderer;
}): Promise<ModeResult> {
  const { deps, report, target } = params;
  const { queues } = deps;
  const fullName = `${params.owner}/${params.repo}`;
  const drifting = hasDrift(report);
  const result: ModeResult = { done: [], lines: [] };
  if (!drifting && report.problems.length > 0) {
    // What could not be compared may be the drift the issue tracks: closing it would be a guess.
    result.lines.push("Some objects could not be compared, so an open tracking issue is left as it is.");
    return result;
  }
  const shownRevision = drifting
    ? await firstSeenRevision({
        redis: queues.connection,
        key: `${queues.prefix}:drift-seen:${targetKey(fullName, target.name)}`,
        fingerprint: report.fingerprint,
        revision: report.revision,
      })
    : report.revision;
  const numbers = trackingIssueNumbers({ redis: queues.connection, prefix: queues.prefix });
  const known = await numbers.get(fullName, target.name);
  const issue = await ensureTargetIssue({
    octokit: params.octokit,
    owner: params.owner,
    repo: params.repo,
    report,
    cluster: target.cluster,
    mode: target.mode,
    shownRevision,
    ...(params.sections?.length ? { sections: params.sections } : {}),
    ...(drifting ? { dashboard: await issueDashboard({ ...params, deps }) } : {}),
    creator: await botLogin(deps.probot),
    ...(known !== undefined ? { known } : {}),
  });
  if (issue.number !== undefined && issue.number !== known) await numbers.set(fullName, target.name, issue.number);
  if (issue.action !== "unchanged") {
    result.done.push({
      event: EVENTS[issue.action],
      summary: `${issue.action} issue #${issue.number ?? "?"}`,
      ...(issue.url ? { url: issue.url } : {}),
    });
  }
  if (drifting && issue.number !== undefined)
    result.lines.push(`Tracking issue: #${issue.number} ${issue.url ?? ""}`.trimEnd());
  return result;
}
