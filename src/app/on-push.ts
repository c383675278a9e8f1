// Pushes: the payload's few fields handlePush needs (a changed config, changed folders).
import type { AppWiring } from "./app-deps.ts";
import { handlePush } from "./handle-push.ts";
import { requireRepository } from "./require-repository.ts";

export function onPush(params: AppWiring): void {
  const { app, deps, store, once } = params;
  app.on(
    "push",
    requireRepository(
      once("push", async (context) => {
        const { payload } = context;
        // A push delivered to a repository webhook rather than the app's installation carries no installation.
        if (!payload.installation) return;
        await handlePush({
          deps,
          octokit: context.octokit,
          store,
          log: context.log,
          push: {
            installationId: payload.installation.id,
            owner: payload.repository.full_name.split("/")[0] ?? "",
            repo: payload.repository.name,
            defaultBranch: payload.repository.default_branch,
            ref: payload.ref,
            after: payload.after,
            deleted: payload.deleted,
            forced: payload.forced,
            commits: payload.commits,
            actor: payload.sender?.login ?? payload.pusher.name,
          },
        });
      }),
    ),
  );
}
