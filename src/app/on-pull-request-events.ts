// Pull requests: a merged revert PR becomes a merge job, an opened or updated
// one a preview job per cluster (src/app/preview/).
import type { AppWiring } from "./app-deps.ts";
import { handlePullRequestClosed } from "./handle-pull-request-closed.ts";
import { handlePullRequest, PREVIEW_ACTIONS } from "./preview/handle-pull-request.ts";

export function onPullRequestEvents(params: AppWiring): void {
  const { app, deps } = params;

  app.on("pull_request.closed", async (context) => {
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
  });

  app.on(
    PREVIEW_ACTIONS.map((action) => `pull_request.${action}` as const),
    async (context) => {
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
    },
  );
}
