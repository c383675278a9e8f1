// Pull requests: a merged revert PR becomes a merge job, an opened or updated
// one a preview job per cluster (src/app/preview/).
import type { AppWiring } from "./app-deps.ts";
import { handlePullRequestClosed } from "./handle-pull-request-closed.ts";
import { handlePullRequest, PREVIEW_ACTIONS } from "./preview/handle-pull-request.ts";
import { requireRepository } from "./require-repository.ts";

interface PullRequestPayload {
  installation?: { id: number } | undefined;
  repository: { name: string; owner: { login: string } };
  pull_request: { number: number; head: { ref: string; repo: { full_name: string } | null } };
}

/** What both handlers are told of the pull request; undefined when no installation delivered it. */
function pullRequestOf(payload: PullRequestPayload) {
  if (!payload.installation) return undefined;
  const pr = payload.pull_request;
  return {
    installationId: payload.installation.id,
    owner: payload.repository.owner.login,
    repo: payload.repository.name,
    number: pr.number,
    headRef: pr.head.ref,
    headRepo: pr.head.repo?.full_name,
  };
}

export function onPullRequestEvents(params: AppWiring): void {
  const { app, deps, once } = params;

  app.on(
    "pull_request.closed",
    requireRepository(
      once("pull-request-closed", async (context) => {
        const { payload } = context;
        const common = pullRequestOf(payload);
        if (!common) return;
        const pr = payload.pull_request;
        await handlePullRequestClosed({
          deps,
          octokit: context.octokit,
          log: context.log,
          pr: { ...common, merged: pr.merged === true, mergeCommitSha: pr.merge_commit_sha },
        });
      }),
    ),
  );

  // Not once per delivery: a preview is asked once per head by itself (request-preview.ts), and a redelivery
  // must ask again when the head's preview failed, after the first delivery's handler succeeded.
  app.on(
    PREVIEW_ACTIONS.map((action) => `pull_request.${action}` as const),
    requireRepository(async (context) => {
      const { payload } = context;
      const common = pullRequestOf(payload);
      if (!common) return;
      const pr = payload.pull_request;
      await handlePullRequest({
        deps,
        octokit: context.octokit,
        log: context.log,
        pr: {
          ...common,
          action: payload.action,
          draft: pr.draft === true,
          headSha: pr.head.sha,
          baseSha: pr.base.sha,
        },
      });
    }),
  );
}
