// The audit of resyncAtBoot: one entry per repository whose schedulers it changed.
import type { UndriftQueues } from "../../queue/create-queues.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import type { SchedulerChanges } from "../../queue/upsert-scan-schedulers.ts";
import { recordAudit } from "../../state/record-audit.ts";

/** Who the audit names for what the resync changed. */
const ACTOR = "undrift (resync at boot)";

export async function auditBootChanges(params: {
  queues: UndriftQueues;
  log: QueueLog;
  changes: SchedulerChanges;
}): Promise<void> {
  const { queues, log, changes } = params;
  // Scheduler ids are `owner/name#target`.
  const byRepo = new Map<string, string[]>();
  for (const kind of ["created", "updated", "removed"] as const) {
    for (const id of changes[kind]) {
      const repo = id.slice(0, id.lastIndexOf("#"));
      byRepo.set(repo, [...(byRepo.get(repo) ?? []), `${kind} ${id.slice(id.lastIndexOf("#") + 1)}`]);
    }
  }
  for (const [repo, said] of byRepo)
    await recordAudit({ queues, log, entry: { event: "schedule", repo, actor: ACTOR, outcome: said.join("; ") } });
}
