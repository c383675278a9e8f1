// What codify and revert share around their one PR per target: recording a PR
// action as an audit event, and the case where the scan found no drift to carry.

import type { PullRequestsConfig } from "../config/schema.ts";
import { closeDriftPr } from "../github/close-drift-pr.ts";
import type { FoundPr } from "../github/find-drift-pr.ts";
import type { GitHubClient } from "../github/github-client.ts";
import type { DriftReport } from "../model/types.ts";
import { hasDrift } from "../report/summary-line.ts";
import type { ModeResult } from "./mode-result.ts";

/** What codify and revert are given to keep their PR, besides what each carries in it. */
export interface DriftPrParams {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  cluster: string;
  base: { branch: string; sha: string; treeSha: string };
  pullRequests: PullRequestsConfig;
  /** The open PR when the caller has looked it up already (the dashboard does, for the items it carries). */
  found?: { pr: FoundPr | undefined };
  /** A hidden line put first in the body (the dashboard's items, dashboard-ticks.ts). */
  hidden?: string;
}

const EVENTS = { created: "pr-opened", updated: "pr-updated", closed: "pr-closed" } as const;

/** Adds a PR action to the mode's result as an audit event; `unchanged` is no event. */
export function recordPrAction(result: ModeResult, pr: { action: string; number?: number; url?: string }): void {
  if (pr.action === "unchanged" || !(pr.action in EVENTS)) return;
  result.done.push({
    event: EVENTS[pr.action as keyof typeof EVENTS],
    summary: `${pr.action} pull request #${pr.number ?? "?"}`,
    ...(pr.url ? { url: pr.url } : {}),
  });
}

/** `body` with a hidden line first, where the body's cap cannot cut it. */
export function withHidden(hidden: string | undefined, body: string): string {
  return hidden ? `${hidden}\n${body}` : body;
}

/**
 * When the scan found no drift: close the target's PR of this mode, unless some objects could not be
 * compared (what they hide may be what the PR carries, so closing it would be a guess). Returns false
 * when there is drift and the caller goes on to keep its PR.
 */
export async function settleWithoutDrift(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  target: string;
  mode: "codify" | "revert";
  report: DriftReport;
  result: ModeResult;
}): Promise<boolean> {
  const { report, result } = params;
  if (hasDrift(report)) return false;
  if (report.problems.length > 0) {
    result.lines.push("Some objects could not be compared, so an open pull request is left as it is.");
    return true;
  }
  const { octokit, owner, repo, target, mode } = params;
  const closed = await closeDriftPr({ octokit, owner, repo, target, mode, revision: report.revision });
  recordPrAction(result, closed);
  if (closed.action === "closed") result.lines.push(`Pull request #${closed.number} was closed: the drift is gone.`);
  return true;
}
