// The audit entries of one repository's webhook, by one actor: each step says
// what it did in one call, and the repository and actor are filled in here.
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { recordAudit } from "../state/record-audit.ts";

export interface RepoAuditEntry {
  event: string;
  outcome: string;
  target?: string;
  cluster?: string;
  revision?: string;
  url?: string;
}

export type RepoAudit = (entry: RepoAuditEntry) => Promise<void>;

export function repoAudit(params: { queues: UndriftQueues; log: QueueLog; repo: string; actor: string }): RepoAudit {
  const { queues, log, repo, actor } = params;
  return async (entry) => {
    await recordAudit({ queues, log, entry: { repo, actor, ...entry } });
  };
}
