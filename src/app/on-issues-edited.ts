// Edits of issues: a writer's ticks on a tracking issue's dashboard (handleDashboardEdit checks who and what).

import { deliveryClaims } from "../state/delivery-claims.ts";
import type { AppWiring } from "./app-deps.ts";
import { handleDashboardEdit } from "./handle-dashboard-edit.ts";
import { requireRepository } from "./require-repository.ts";

export function onIssuesEdited(params: AppWiring): void {
  const { app, deps, once } = params;
  const claims = deliveryClaims({ redis: deps.queues.connection, prefix: deps.queues.prefix });
  app.on(
    "issues.edited",
    requireRepository(
      once("issues-edited", async (context) => {
        const { payload } = context;
        if (!payload.installation || payload.issue.pull_request) return;
        await handleDashboardEdit({
          deps,
          octokit: context.octokit,
          log: context.log,
          claims,
          edit: {
            installationId: payload.installation.id,
            owner: payload.repository.owner.login,
            repo: payload.repository.name,
            number: payload.issue.number,
            before: payload.changes.body?.from,
            after: payload.issue.body,
            sender: payload.sender.login,
            senderIsBot: payload.sender.type === "Bot",
          },
        });
      }),
    ),
  );
}
