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
import type { AppDeps } from "../../app/app-deps.ts";
import { listInstallationRepositories, listInstallations } from "../../github/list-installations.ts";
import { listScanSchedulers } from "../../queue/list-scan-schedulers.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import { syncSchedulers } from "../../queue/sync-schedulers.ts";
import type { RepoTargets, SchedulerChanges } from "../../queue/upsert-scan-schedulers.ts";
import { auditBootChanges } from "./audit-boot-changes.ts";
import { readBootRepo } from "./read-boot-repo.ts";

export async function resyncAtBoot(params: {
  deps: AppDeps;
  probot: Probot;
  log: QueueLog;
}): Promise<SchedulerChanges> {
  const { deps, probot, log } = params;
  const { queues } = deps;
  const appOctokit = await probot.auth();
  const installations = await listInstallations(appOctokit);
  const repos: RepoTargets[] = [];
  const keep = new Set<string>();
  // Repositories whose schedulers belong to an installation whose repositories could not be listed.
  const unlisted = new Set<number>();

  // 1. Every repository of every installation the app is not suspended in.
  for (const installation of installations) {
    if (installation.suspended_at) continue;
    let octokit: ProbotOctokit;
    let repositories: ReadonlyArray<{ full_name: string }>;
    try {
      octokit = await probot.auth(installation.id);
      repositories = await listInstallationRepositories(octokit);
    } catch (error) {
      log.error({ err: error, installationId: installation.id }, "resync at boot: could not list the repositories");
      unlisted.add(installation.id);
      continue;
    }
    for (const { full_name } of repositories) {
      const read = await readBootRepo({ deps, octokit, log, installationId: installation.id, fullName: full_name });
      if (read === "keep") keep.add(full_name);
      else if (read !== "absent") repos.push(read);
    }
  }
  // 2. What an unlisted installation has scheduled stays.
  if (unlisted.size > 0) {
    for (const scheduler of await listScanSchedulers(queues))
      if (scheduler.job && unlisted.has(scheduler.job.installationId)) keep.add(scheduler.job.repo);
  }
  // 3. The schedule queue made to match, and audited.
  const changes = await syncSchedulers({ queues, repos, keep });
  await auditBootChanges({ queues, log, changes });
  return changes;
}
