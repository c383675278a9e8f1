// What a pull request's reviewers see of its preview, written from every
// result stored for its head so far (preview-store.ts), under a short Redis
// lock per pull request, so the jobs of two clusters finishing at once never
// interleave their writes:
//   1. the head must still be the latest: a job of an older push writes nothing;
//   2. the sticky comment (ensure-preview-comments.ts): parts rendered by
//      renderPreviewComment, edited in place, extra parts deleted, no write when
//      nothing changed. It is first posted once some target has a preview: a
//      pull request that changes no target gets no comment, only the check;
//   3. the check run `undrift/preview` on the head: in progress while some
//      cluster's results are pending, then completed with the renderer's
//      conclusion (failure only for a render error, a failed preview or a
//      refused prune; neutral when the merge changes something; success else).

import { ensureCheckRun } from "../../github/ensure-check-run.ts";
import { ensurePreviewComments, previewMarkerRoom } from "../../github/ensure-preview-comments.ts";
import type { GitHubClient } from "../../github/github-client.ts";
import type { UndriftQueues } from "../../queue/create-queues.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import { withRedisLock } from "../../queue/redis-lock.ts";
import { bodyLimit } from "../../report/markers.ts";
import { renderPreviewCheck } from "../../report/preview/render-preview-check.ts";
import { renderPreviewComment } from "../../report/preview/render-preview-comment.ts";
import { previewStore } from "../../state/preview-store.ts";
import { recordAudit } from "../../state/record-audit.ts";
import { previewInput } from "./preview-input.ts";

/** The check run of a pull request's preview, one per head commit. */
export const PREVIEW_CHECK = "undrift/preview";

export interface ComposeOutcome {
  outcome: "composed" | "superseded";
  /** The GitHub writes made: `created preview part 1 on #12`, `updated check run undrift/preview`. */
  actions: string[];
}

export async function composePreview(params: {
  queues: UndriftQueues;
  log: QueueLog;
  /** The installation's client (conditional reads are welcome). */
  octokit: GitHubClient;
  repo: string;
  number: number;
  head: string;
}): Promise<ComposeOutcome> {
  const { queues, octokit, number, head } = params;
  const [owner = "", repo = ""] = params.repo.split("/");
  const store = previewStore({ redis: queues.connection, prefix: queues.prefix, repo: params.repo, number });
  return withRedisLock({ redis: queues.connection, key: store.lockKey }, async () => {
    // 1. Still the latest push?
    const plan = await store.plan(head);
    if ((await store.latest()) !== head || !plan) return { outcome: "superseded", actions: [] };
    const input = previewInput({ head, plan, results: await store.results(head) });

    // 2. The sticky comment.
    const comments = await ensurePreviewComments({
      octokit,
      owner,
      repo,
      number,
      parts: renderPreviewComment(input, { maxLength: bodyLimit - previewMarkerRoom }),
      createIfAbsent: input.previews.length > 0,
    });

    // 3. The check run.
    const check = renderPreviewCheck(input);
    const pending = (input.pending?.length ?? 0) > 0;
    const run = await ensureCheckRun({
      octokit,
      owner,
      repo,
      name: PREVIEW_CHECK,
      headSha: head,
      status: pending ? "in_progress" : "completed",
      conclusion: check.conclusion,
      output: { title: check.title, summary: check.summary, text: check.text },
    });
    const actions = [...comments.actions];
    if (run.action !== "unchanged") actions.push(`${run.action} check run ${PREVIEW_CHECK}`);
    if (actions.length > 0) {
      await recordAudit({
        queues,
        log: params.log,
        entry: {
          event: "preview",
          repo: params.repo,
          revision: head,
          actor: "undrift",
          outcome: `#${number}: ${check.title}${pending ? "" : ` (${check.conclusion})`}`,
          ...(comments.url ? { url: comments.url } : run.url ? { url: run.url } : {}),
        },
      });
    }
    return { outcome: "composed", actions };
  });
}
