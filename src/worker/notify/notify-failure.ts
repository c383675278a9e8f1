// A scan that failed for good tells the channels that want `failing`, once per
// distinct error line until a scan works again (notify-scan.ts forgets it then).
// The repository's last valid config says who wants it: the failed scan may
// not have read one.
import { shortHash } from "../../model/short-hash.ts";
import type { ScanJob } from "../../queue/jobs.ts";
import { NOTIFY_JOB, notifyJobId } from "../../queue/notify-jobs.ts";
import type { Notice } from "../../report/notify/notice.ts";
import { lastValidConfig } from "../../state/last-valid-config.ts";
import { notifyState } from "../../state/notify-state.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { usableNotifications } from "./usable-notifications.ts";

export async function notifyFailure(params: {
  deps: Pick<WorkerDeps, "queues" | "registry" | "log">;
  job: ScanJob;
  /** The masked one-line error the check run shows. */
  message: string;
  revision: string;
  checkUrl?: string;
}): Promise<void> {
  const { deps, job } = params;
  const config = await lastValidConfig({ redis: deps.queues.connection, prefix: deps.queues.prefix }).get(job.repo);
  const wanted = (config?.notifications ?? []).filter((n) => n.events.includes("failing"));
  const notifications = usableNotifications({ deps, repo: job.repo, notifications: wanted });
  if (notifications.length === 0) return;
  const store = notifyState({ redis: deps.queues.connection, prefix: deps.queues.prefix });
  const seen = shortHash(params.message);
  if ((await store.get(job.repo, job.target)).seen.failing === seen) return;
  const repository = params.checkUrl && /^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\//.exec(params.checkUrl)?.[1];
  const notice: Notice = {
    event: "failing",
    reminder: 0,
    repo: job.repo,
    target: job.target,
    cluster: job.cluster,
    revision: params.revision,
    fingerprint: "",
    counts: { drifted: 0, missing: 0, orphaned: 0, inSync: 0 },
    objects: [],
    moreObjects: 0,
    actors: [],
    summary: params.message,
    links: { ...(params.checkUrl ? { check: params.checkUrl } : {}), ...(repository ? { repository } : {}) },
  };
  await deps.queues.notify().addBulk(
    notifications.map((n) => ({
      name: NOTIFY_JOB,
      data: { channel: n.channel, notice },
      opts: {
        ...deps.queues.notifyJobOptions,
        jobId: notifyJobId([job.repo.toLowerCase(), job.target, "failing", seen, params.revision], n.channel),
      },
    })),
  );
  await store.set(job.repo, job.target, { seen: { failing: seen } });
}
