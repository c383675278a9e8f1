// Installations: a repository the app now sees is loaded and scheduled, one it
// no longer sees (deleted, suspended, removed) loses its schedulers.
import type { AppWiring } from "./app-deps.ts";
import { handleInstallation } from "./handle-installation.ts";
import { unscheduleRepos } from "./unschedule-repos.ts";

export function onInstallationEvents(params: AppWiring): void {
  const { app, deps, store } = params;
  const { queues } = deps;

  app.on(["installation.created", "installation.unsuspend"], async (context) => {
    const { installation, repositories, sender } = context.payload;
    await handleInstallation({
      deps,
      octokit: context.octokit,
      store,
      log: context.log,
      installationId: installation.id,
      repositories,
      actor: sender.login,
    });
  });

  app.on("installation_repositories.added", async (context) => {
    const { installation, repositories_added, sender } = context.payload;
    await handleInstallation({
      deps,
      octokit: context.octokit,
      store,
      log: context.log,
      installationId: installation.id,
      repositories: repositories_added,
      actor: sender.login,
    });
  });

  app.on(["installation.deleted", "installation.suspend"], async (context) => {
    const { installation, action, sender } = context.payload;
    await unscheduleRepos({
      queues,
      log: context.log,
      actor: sender.login,
      why: `installation ${action}`,
      scope: { installationId: installation.id },
    });
  });

  app.on("installation_repositories.removed", async (context) => {
    const { repositories_removed, sender } = context.payload;
    await unscheduleRepos({
      queues,
      log: context.log,
      actor: sender.login,
      why: "repository removed from the installation",
      scope: { repos: repositories_removed.map((r) => r.full_name) },
    });
  });
}
