// The Probot app: wiring only, webhook -> job. Each event is handed to a step
// in src/app/; scans themselves run in the workers (src/app/scan-handlers.ts).
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
//
//
// Every handler runs once per delivery id (once-per-delivery.ts): GitHub's redeliveries repeat the id.
//
//   await run(undriftApp({ queues, registry }));
import type { ApplicationFunction, Probot } from "probot";
import { deliveryClaims } from "../state/delivery-claims.ts";
import { redisStore } from "../state/redis-store.ts";
import type { AppDeps } from "./app-deps.ts";
import { handleInstallation } from "./handle-installation.ts";
import { handleIssueComment } from "./handle-issue-comment.ts";
import { handlePullRequestClosed } from "./handle-pull-request-closed.ts";
import { handlePush } from "./handle-push.ts";
import { oncePerDelivery } from "./once-per-delivery.ts";
import { handlePullRequest, PREVIEW_ACTIONS } from "./preview/handle-pull-request.ts";
import { unscheduleRepos } from "./unschedule-repos.ts";

export function undriftApp(deps: AppDeps): ApplicationFunction {
  return (app: Probot) => {
    const { queues } = deps;
    const store = redisStore({ redis: queues.connection, prefix: queues.prefix });
    const once = oncePerDelivery({
      claims: deliveryClaims({ redis: queues.connection, prefix: queues.prefix }),
      log: app.log,
    });

    app.on(
      ["installation.created", "installation.unsuspend"],
      once("installation", async (context) => {
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
      }),
    );

    app.on(
      "installation_repositories.added",
      once("repositories-added", async (context) => {
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

    app.on(
      "push",
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
    );

    app.on(
      "pull_request.closed",
      once("pull-request-closed", async (context) => {
        const { payload } = context;
        if (!payload.installation) return;
        const pr = payload.pull_request;
        await handlePullRequestClosed({
          deps,
          octokit: context.octokit,
          log: context.log,
          pr: {
            installationId: payload.installation.id,
            owner: payload.repository.owner.login,
            repo: payload.repository.name,
            number: pr.number,
            merged: pr.merged === true,
            mergeCommitSha: pr.merge_commit_sha,
            headRef: pr.head.ref,
            headRepo: pr.head.repo?.full_name,
          },
        });
      }),
    );

    app.on(
      PREVIEW_ACTIONS.map((action) => `pull_request.${action}` as const),
      once("pull-request-preview", async (context) => {
        const { payload } = context;
        if (!payload.installation) return;
        const pr = payload.pull_request;
        await handlePullRequest({
          deps,
          octokit: context.octokit,
          log: context.log,
          pr: {
            installationId: payload.installation.id,
            owner: payload.repository.owner.login,
            repo: payload.repository.name,
            number: pr.number,
            action: payload.action,
            draft: pr.draft === true,
            headRef: pr.head.ref,
            headSha: pr.head.sha,
            headRepo: pr.head.repo?.full_name,
            baseSha: pr.base.sha,
          },
        });
      }),
    );

    app.on(
      "issue_comment.created",
      once("issue-comment", async (context) => {
        const { payload } = context;
        const author = payload.comment.user;
        if (!payload.installation || !author) return;
        await handleIssueComment({
          deps,
          octokit: context.octokit,
          log: context.log,
          comment: {
            installationId: payload.installation.id,
            owner: payload.repository.owner.login,
            repo: payload.repository.name,
            number: payload.issue.number,
            issueBody: payload.issue.body,
            comment: payload.comment.body,
            author: author.login,
            authorIsBot: author.type === "Bot",
            pullRequest: payload.issue.pull_request !== undefined,
          },
        });
      }),
    );
  };
}
