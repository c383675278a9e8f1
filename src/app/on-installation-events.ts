// Installations: a repository the app now sees is loaded and scheduled, one it
// no longer sees (deleted, suspended, removed) loses its schedulers.
import type { ProbotOctokit } from "probot";
import type { QueueLog } from "../queue/queue-log.ts";
import { unscheduleRepos } from "../schedules/unschedule-repos.ts";
import type { AppWiring } from "./app-deps.ts";
import { handleInstallation } from "./handle-installation.ts";

export function onInstallationEvents(params: AppWiring): void {
  const { app, deps, store, once } = params;
  const { queues } = deps;

  // Installed or unsuspended: every repository it covers; added: the ones added.
  const schedule = (
    context: { octokit: ProbotOctokit; log: QueueLog },
    payload: { installation: { id: number }; sender: { login: string } },
    repositories: ReadonlyArray<{ full_name: string }> | undefined,
  ) =>
    handleInstallation({
      deps,
      octokit: context.octokit,
      store,
      log: context.log,
      installationId: payload.installation.id,
      repositories,
      actor: payload.sender.login,
    });
  app.on(
    ["installation.created", "installation.unsuspend"],
    once("installation", async (context) => {
      await schedule(context, context.payload, context.payload.repositories);
    }),
  );
  app.on(
    "installation_repositories.added",
    once("repositories-added", async (context) => {
      await schedule(context, context.payload, context.payload.repositories_added);
    }),
  );

  app.on(
    ["installation.deleted", "installation.suspend"],
    once("uninstall", async (context) => {
      const { installation, action, sender } = context.payload;
      await unscheduleRepos({
        queues,
        log: context.log,
        actor: sender.login,
        why: `installation ${action}`,
        scope: { installationId: installation.id },
      });
    }),
  );

  app.on(
    "installation_repositories.removed",
    once("repositories-removed", async (context) => {
      const { repositories_removed, sender } = context.payload;
      await unscheduleRepos({
        queues,
        log: context.log,
        actor: sender.login,
        why: "repository removed from the installation",
        scope: { repos: repositories_removed.map((r) => r.full_name) },
      });
    }),
  );
}
