// Step 3 of syncRepoSchedulers, for the allowed targets: their schedulers
// upserted (a new or changed one scans at once), and one audit entry saying
// what was created, updated or removed, when anything was.
import type { RepoConfig } from "../config/schema.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import { type SchedulerChanges, upsertScanSchedulers } from "../queue/upsert-scan-schedulers.ts";
import type { RepoAudit } from "./repo-audit.ts";

export async function scheduleTargets(params: {
  queues: UndriftQueues;
  reason: "install" | "config";
  installationId: number;
  /** `owner/repo`. */
  repo: string;
  config: RepoConfig;
  /** The allowed targets, and the ticks of the allowed `discover:` entries (config/discovery-target.ts). */
  allowed: ReadonlyArray<{ name: string; cluster: string }>;
  audit: RepoAudit;
}): Promise<SchedulerChanges> {
  const changes = await upsertScanSchedulers({
    queues: params.queues,
    reason: params.reason,
    repo: {
      installationId: params.installationId,
      repo: params.repo,
      scheduleMs: params.config.scheduleMs,
      targets: params.allowed.map((target) => ({ name: target.name, cluster: target.cluster })),
    },
  });
  const changed = [...changes.created, ...changes.updated, ...changes.removed];
  if (changed.length > 0) {
    const said = (["created", "updated", "removed"] as const).flatMap((kind) =>
      changes[kind].length ? [`${kind} ${changes[kind].join(", ")}`] : [],
    );
    await params.audit({ event: "schedule", outcome: said.join("; ") });
  }
  return changes;
}
