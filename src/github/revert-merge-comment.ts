// The one comment undrift leaves on a merged revert pull request: what was
// applied (with each object's health), which orphans were pruned, what was
// held back or left unpruned and why. Found
// again by its hidden marker and edited in place, so a redelivered job never
// posts a second one.

import type { ObjectRecord } from "../model/change-set.ts";
import { objectLabel } from "../model/object-label.ts";
import type { HeldBack } from "../plan/approved-drift.ts";
import { withMarker } from "../report/markers.ts";
import { type EnsureCommentResult, ensureComment } from "./ensure-comment.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { createWrites } from "./github-writes.ts";
import { listComments } from "./list-comments.ts";

export interface RevertMergeOutcome {
  target: string;
  cluster: string;
  revision: string;
  /** One record per approved object the apply went through. */
  applied: ObjectRecord[];
  /** One record per approved orphan: deleted, or skipped (or failed) with the reason. */
  pruned: ObjectRecord[];
  held: HeldBack[];
  /** Objects the record listed that match Git by now. */
  settled: string[];
  /** Why nothing at all was applied (no record, a moved target), when that is so. */
  refused?: string;
}

/** `<!-- undrift:revert-merge target=infra -->` */
export function revertMergeMarker(target: string): string {
  return `<!-- undrift:revert-merge target=${target} -->`;
}

export function revertMergeComment(outcome: RevertMergeOutcome): string {
  const at = `cluster \`${outcome.cluster}\`, target \`${outcome.target}\`, revision \`${outcome.revision.slice(0, 12)}\``;
  if (outcome.refused) return `**Nothing was applied** (${at}): ${outcome.refused}`;
  const ok = outcome.applied.filter(
    (r) => r.action === "created" || r.action === "configured" || r.action === "unchanged",
  );
  const failed = outcome.applied.filter((r) => !ok.includes(r));
  const health = (r: ObjectRecord) =>
    r.health ? `; health: ${r.health.status}${r.health.message ? ` (${r.health.message})` : ""}` : "";
  const sections = [`undrift applied this pull request's record (${at}).`];
  sections.push(
    [
      "**Applied**",
      "",
      ...(ok.length > 0
        ? ok.map(
            (r) =>
              `- \`${objectLabel(r)}\`: ${r.action}${r.changes?.length ? ` ${r.changes.map((c) => `\`${c}\``).join(", ")}` : ""}${health(r)}`,
          )
        : ["- nothing"]),
    ].join("\n"),
  );
  if (failed.length > 0) {
    sections.push(
      [
        "**Not applied** (refused or skipped by the cluster)",
        "",
        ...failed.map((r) => `- \`${objectLabel(r)}\`: ${r.action}${r.reason ? `: ${r.reason}` : ""}`),
      ].join("\n"),
    );
  }
  const deleted = outcome.pruned.filter((r) => r.action === "deleted");
  const kept = outcome.pruned.filter((r) => r.action !== "deleted");
  if (deleted.length > 0) {
    sections.push(
      [
        "**Pruned** (orphans this pull request approved)",
        "",
        ...deleted.map((r) => `- \`${objectLabel(r)}\`: deleted${r.reason ? ` (${r.reason})` : ""}`),
      ].join("\n"),
    );
  }
  if (outcome.held.length > 0 || kept.length > 0) {
    sections.push(
      [
        "**Skipped**",
        "",
        ...outcome.held.map((h) => `- \`${objectLabel(h.object)}\` (${h.object.status}): ${h.reason}`),
        ...kept.map((r) => `- \`${objectLabel(r)}\` (orphaned): not pruned: ${r.reason ?? r.action}`),
      ].join("\n"),
    );
  }
  if (outcome.settled.length > 0) {
    sections.push(
      ["**Already in sync** (nothing to apply)", "", ...outcome.settled.map((label) => `- \`${label}\``)].join("\n"),
    );
  }
  const unhealthy = outcome.applied.filter((r) => r.health && r.health.status !== "healthy");
  sections.push(
    `**Health:** ${failed.length > 0 ? `${failed.length} object(s) not applied` : unhealthy.length > 0 ? `${unhealthy.length} applied object(s) not healthy yet` : "every applied object is healthy"}.`,
  );
  if (outcome.held.some((h) => h.unseen))
    sections.push("The skipped drift stays for the next scan, which proposes it in a new pull request.");
  return sections.join("\n\n");
}

/** Posts the comment, or edits the one carrying the marker; unchanged text writes nothing. */
export async function ensureRevertMergeComment(
  params: RepoRef & { octokit: GitHubClient; pullNumber: number; target: string; body: string },
): Promise<EnsureCommentResult> {
  const { pullNumber } = params;
  const marker = revertMergeMarker(params.target);
  // Ours is posted right after the merge, so among the first page of a PR's comments.
  const comments = await listComments({
    ...params,
    number: pullNumber,
    step: `read comments of pull request #${pullNumber}`,
    allPages: false,
  });
  const found = comments.find((c) => c.body?.startsWith(marker));
  return ensureComment({
    writes: createWrites(params),
    number: pullNumber,
    body: withMarker({ marker, body: params.body }),
    existing: found && { id: Number(found.id), url: found.html_url, body: found.body },
    names: {
      create: `comment on pull request #${pullNumber}`,
      update: `update comment on pull request #${pullNumber}`,
    },
  });
}
