// Comments: `/undrift scan` and `/undrift preview` from a person (handleIssueComment checks who).
import type { AppWiring } from "./app-deps.ts";
import { handleIssueComment } from "./handle-issue-comment.ts";
import { requireRepository } from "./require-repository.ts";

export function onIssueComment(params: AppWiring): void {
  const { app, deps, once } = params;
  app.on(
    "issue_comment.created",
    requireRepository(
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
    ),
  );
}
