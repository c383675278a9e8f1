// One repository of resyncAtBoot: its config loaded as on installation. A
// valid one is kept as the one in force and yields its allowed targets (a
// refused one is logged); an invalid or unreadable one keeps the schedulers
// as they are, so a GitHub outage at boot unschedules nothing.
import type { ProbotOctokit } from "probot";
import type { AppDeps } from "../../app/app-deps.ts";
import { partitionScheduled } from "../../config/partition-targets.ts";
import { loadRepoConfig } from "../../github/load-repo-config.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import type { RepoTargets } from "../../queue/upsert-scan-schedulers.ts";
import { lastValidConfig } from "../../state/last-valid-config.ts";

/** The targets to schedule; "keep" to leave the schedulers as they are; "absent" when it has no config. */
export async function readBootRepo(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  installationId: number;
  /** `owner/repo`. */
  fullName: string;
}): Promise<RepoTargets | "keep" | "absent"> {
  const { deps, octokit, log, fullName } = params;
  const { queues } = deps;
  const [owner = "", repo = ""] = fullName.split("/");
  try {
    const loaded = await loadRepoConfig({ octokit, owner, repo });
    if (loaded.status === "absent") return "absent";
    if (loaded.status === "invalid") {
      log.warn({ repo: fullName, err: loaded.error }, "resync at boot: invalid config; its schedulers are kept");
      return "keep";
    }
    const { config } = loaded;
    await lastValidConfig({ redis: queues.connection, prefix: queues.prefix }).set(fullName, config);
    const parts = partitionScheduled({ registry: deps.registry, repo: fullName, config });
    for (const { target, error } of parts.refused)
      log.warn({ repo: fullName, target: target.name, err: error }, "resync at boot: target refused");
    return {
      installationId: params.installationId,
      repo: fullName,
      scheduleMs: config.scheduleMs,
      targets: parts.allowed.map((target) => ({ name: target.name, cluster: target.cluster })),
    };
  } catch (error) {
    log.error({ err: error, repo: fullName }, "resync at boot: could not read the config; its schedulers are kept");
    return "keep";
  }
}
