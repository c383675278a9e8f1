// The Probot app: wiring only, webhook -> job. Each event is handed to a step
// in src/app/ (registered by on-*.ts); scans themselves run in the workers (src/worker/scan-handlers.ts).
//
//   installation.created, installation_repositories.added, installation.unsuspend
//                       -> load each repository's config, schedule its targets
//   installation.deleted, installation.suspend, installation_repositories.removed
//                       -> remove their schedulers
//   push (default branch) -> reload a changed config; scan targets whose folders changed
//   pull_request.closed (undrift/revert/<target>, merged) -> a merge job that applies what it approved
//   pull_request.opened, synchronize, reopened, ready_for_review -> a preview job per cluster
//                       (what merging would change there; see src/app/preview/)
//   issue_comment.created (`/undrift scan` on a tracking issue or drift PR, by a writer) -> a scan
//                       (`/undrift preview` on a pull request, by a writer) -> the preview again
//   issues.edited (boxes ticked on a tracking issue's dashboard, by a writer) -> a dashboard job
//
// Every handler runs once per delivery id (once-per-delivery.ts): GitHub's redeliveries repeat the id.
// Previews are the exception: asked once per head by themselves, and again when the head's preview failed.
//
//   await run(undriftApp({ queues, registry }));
import type { ApplicationFunction, Probot } from "probot";
import { deliveryClaims } from "../state/delivery-claims.ts";
import { redisStore } from "../state/redis-store.ts";
import type { AppDeps } from "./app-deps.ts";
import { onInstallationEvents } from "./on-installation-events.ts";
import { onIssueComment } from "./on-issue-comment.ts";
import { onIssuesEdited } from "./on-issues-edited.ts";
import { onPullRequestEvents } from "./on-pull-request-events.ts";
import { onPush } from "./on-push.ts";
import { oncePerDelivery } from "./once-per-delivery.ts";

export function undriftApp(deps: AppDeps): ApplicationFunction {
  return (app: Probot) => {
    const { queues } = deps;
    const store = redisStore({ redis: queues.connection, prefix: queues.prefix });
    const once = oncePerDelivery({
      claims: deliveryClaims({ redis: queues.connection, prefix: queues.prefix }),
      log: app.log,
    });
    const wiring = { app, deps, store, once };
    // 1. Installations schedule or unschedule their repositories.
    onInstallationEvents(wiring);
    // 2. A push to the default branch reloads the config and scans what changed.
    onPush(wiring);
    // 3. A merged revert PR is applied; an open PR is previewed.
    onPullRequestEvents(wiring);
    // 4. A writer's `/undrift scan` or `/undrift preview`.
    onIssueComment(wiring);
    // 5. A writer's ticks on a tracking issue's dashboard.
    onIssuesEdited(wiring);
  };
}
