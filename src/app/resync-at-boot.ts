// The resync at boot: webhooks keep the schedulers in step while the web
// process runs; this catches up on what happened while it did not (installs,
// uninstalls, config pushes). Every installation of the app and each of its
// repositories are listed (paginated), each repository's config is loaded as
// on installation, and syncSchedulers makes the schedule queue match.
//   - valid config: its allowed targets are scheduled (new or changed ones are
//     scanned at once); a target whose cluster the registry refuses gets none;
//   - no config: the repository's schedulers go;
//   - invalid config, or a config (or an installation's repositories) that
//     could not be read: kept as they are, so a GitHub outage at boot
//     unschedules nothing and the last valid config stays in force.
// If the installations themselves cannot be listed, nothing changes at all.
import type { Probot, ProbotOctokit } from "probot";
import { partitionTargets } from "../config/partition-targets.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { listScanSchedulers } from "../queue/list-scan-schedulers.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { syncSchedulers } from "../queue/sync-schedulers.ts";
import type { RepoTargets, SchedulerChanges } from "../queue/upsert-scan-schedulers.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { recordAudit } from "../state/record-audit.ts";
import type { AppDeps } from "./app-deps.ts";

/** Who the audit names for what the resync changed. */
const ACTOR = "undrift (resync at boot)";

export async function resyncAtBoot(params: {
  deps: AppDeps;
  probot: Probot;
  log: QueueLog;
}): Promise<SchedulerChanges> {
  const { deps, probot, log } = params;
  const { queues } = deps;
  const appOctokit = await probot.auth();
  const installations = await appOctokit.paginate("GET /app/installations", { per_page: 100 });
  const repos: RepoTargets[] = [];
  const keep = new Set<string>();
  // Repositories whose schedulers belong to an installation whose repositories could not be listed.
  const unlisted = new Set<number>();

  for (const installation of installations) {
    if (installation.suspended_at) continue;
    let octokit: ProbotOctokit;
    let repositories: ReadonlyArray<{ full_name: string }>;
    try {
      octokit = await probot.auth(installation.id);
      repositories = await octokit.paginate("GET /installation/repositories", { per_page: 100 });
    } catch (error) {
      log.error({ err: error, installationId: installation.id }, "resync at boot: could not list the repositories");
      unlisted.add(installation.id);
      continue;
    }
    for (const { full_name } of repositories) {
      const [owner = "", repo = ""] = full_name.split("/");
      try {
        const loaded = await loadRepoConfig({ octokit, owner, repo });
        if (loaded.status === "absent") continue;
        if (loaded.status === "invalid") {
          log.warn({ repo: full_name, err: loaded.error }, "resync at boot: invalid config; its schedulers are kept");
          keep.add(full_name);
          continue;
        }
        const { config } = loaded;
        await lastValidConfig({ redis: queues.connection, prefix: queues.prefix }).set(full_name, config);
        const parts = partitionTargets({ registry: deps.registry, repo: full_name, targets: config.targets });
        for (const { target, error } of parts.refused)
          log.warn({ repo: full_name, target: target.name, err: error }, "resync at boot: target refused");
        repos.push({
          installationId: installation.id,
          repo: full_name,
          scheduleMs: config.scheduleMs,
          targets: parts.allowed.map((target) => ({ name: target.name, cluster: target.cluster })),
        });
      } catch (error) {
        log.error(
          { err: error, repo: full_name },
          "resync at boot: could not read the config; its schedulers are kept",
        );
        keep.add(full_name);
      }
    }
  }
  if (unlisted.size > 0) {
    for (const scheduler of await listScanSchedulers(queues))
      if (scheduler.job && unlisted.has(scheduler.job.installationId)) keep.add(scheduler.job.repo);
  }

  const changes = await syncSchedulers({ queues, repos, keep });
  // Scheduler ids are `owner/name#target`: one audit entry per repository that changed.
  const byRepo = new Map<string, string[]>();
  for (const kind of ["created", "updated", "removed"] as const) {
    for (const id of changes[kind]) {
      const repo = id.slice(0, id.lastIndexOf("#"));
      byRepo.set(repo, [...(byRepo.get(repo) ?? []), `${kind} ${id.slice(id.lastIndexOf("#") + 1)}`]);
    }
  }
  for (const [repo, said] of byRepo)
    await recordAudit({ queues, log, entry: { event: "schedule", repo, actor: ACTOR, outcome: said.join("; ") } });
  return changes;
}
