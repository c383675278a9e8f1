// One pull request of the fake repository (app-github.ts) as a preview meets
// it: its comments (listed, posted, edited, deleted, by id, as GitHub keeps
// them), the pull request itself, the merge base of its two commits, a
// user's permission, and the `pull_request` webhook payload from
// @octokit/webhooks-examples. Each phase declares its calls with counts.
//
//   const pr = fakePullRequest({ github, gh, number: 7, base, head });
//   pr.expectComments({ list: 1, create: 1 }); pr.expectCompare();
//   await h.deliver("pull_request", pr.payload("opened"));
import { createRequire } from "node:module";
import type { FakeRepo, RepoCommit } from "./app-github.ts";
import { BOT } from "./app-github.ts";
import type { GitHubMock } from "./github-mock.ts";

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: "Bot" | "User" };
}

export interface FakePullRequest {
  number: number;
  base: RepoCommit;
  head: RepoCommit;
  /** Every comment on the pull request, in the order posted. */
  comments: FakeComment[];
  /** The comment calls of one phase: edits go to the first `update` comments, deletions to the last `delete`. */
  expectComments(counts: { list?: number; create?: number; update?: number; delete?: number }): void;
  /** GET compare base...head, answering base as the merge base, with head `behindBy` commits behind it (default 0). */
  expectCompare(times?: number, options?: { behindBy?: number }): void;
  /** GET the pull request (for `/undrift preview`). */
  expectGet(): void;
  /** GET a user's permission on the repository. */
  expectPermission(username: string, role: "admin" | "maintain" | "write" | "read"): void;
  /** The `pull_request` webhook for `action`, with the current base and head. */
  payload(
    action: "opened" | "synchronize" | "reopened" | "ready_for_review",
    options?: { draft?: boolean; headRef?: string },
  ): object;
}

const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as Array<{
  name: string;
  examples: Array<Record<string, unknown>>;
}>;

export function fakePullRequest(params: {
  github: GitHubMock;
  gh: FakeRepo;
  number: number;
  base: RepoCommit;
  head: RepoCommit;
}): FakePullRequest {
  const { github, gh, number } = params;
  const path = `/repos/${gh.owner}/${gh.repo}`;
  const html = `https://github.com/${gh.owner}/${gh.repo}/pull/${number}`;
  let nextId = 51_000 + number * 1000;
  const shown = (c: FakeComment) => ({ ...c, html_url: `${html}#issuecomment-${c.id}` });
  const pr: FakePullRequest = {
    number,
    base: params.base,
    head: params.head,
    comments: [],
    expectComments(counts) {
      if (counts.list) {
        github.expect({
          method: "GET",
          path: `${path}/issues/${number}/comments`,
          times: counts.list,
          reply: (req) => {
            const page = Number(req.query.page ?? 1);
            const size = Number(req.query.per_page ?? 30);
            return { body: pr.comments.slice((page - 1) * size, page * size).map(shown) };
          },
        });
      }
      if (counts.create) {
        github.expect({
          method: "POST",
          path: `${path}/issues/${number}/comments`,
          times: counts.create,
          reply: (req) => {
            const comment: FakeComment = {
              id: nextId++,
              body: (req.json as { body: string }).body,
              user: { login: BOT, type: "Bot" },
            };
            pr.comments.push(comment);
            return { status: 201, body: shown(comment) };
          },
        });
      }
      // Edits go to the first `update` comments, deletions to the last `delete`: parts in order, as the app keeps them.
      for (const comment of pr.comments.slice(0, counts.update ?? 0)) {
        github.expect({
          method: "PATCH",
          path: `${path}/issues/comments/${comment.id}`,
          reply: (req) => {
            comment.body = (req.json as { body: string }).body;
            return { body: shown(comment) };
          },
        });
      }
      for (const comment of counts.delete ? pr.comments.slice(-counts.delete) : []) {
        github.expect({
          method: "DELETE",
          path: `${path}/issues/comments/${comment.id}`,
          reply: () => {
            pr.comments.splice(pr.comments.indexOf(comment), 1);
            return { status: 204 };
          },
        });
      }
    },
    expectCompare(times = 1, options = {}) {
      github.expect({
        method: "GET",
        path: `${path}/compare/${pr.base.sha}...${pr.head.sha}`,
        times,
        reply: () => ({
          body: {
            status: "ahead",
            ahead_by: 1,
            behind_by: options.behindBy ?? 0,
            total_commits: 1,
            base_commit: { sha: pr.base.sha },
            merge_base_commit: { sha: pr.base.sha },
            commits: [],
            files: [],
          },
        }),
      });
    },
    expectGet() {
      github.expect({
        method: "GET",
        path: `${path}/pulls/${number}`,
        reply: () => ({
          body: {
            number,
            state: "open",
            draft: false,
            html_url: html,
            head: { ref: "feature", sha: pr.head.sha, repo: { full_name: `${gh.owner}/${gh.repo}` } },
            base: { ref: "main", sha: pr.base.sha, repo: { full_name: `${gh.owner}/${gh.repo}` } },
          },
        }),
      });
    },
    expectPermission(username, role) {
      github.expect({
        method: "GET",
        path: `${path}/collaborators/${username}/permission`,
        reply: {
          body: {
            permission: role === "maintain" ? "write" : role,
            role_name: role,
            user: { login: username, id: 1, type: "User" },
          },
        },
      });
    },
    payload(action, options = {}) {
      const found = examples.find((e) => e.name === "pull_request")?.examples.find((e) => e.action === action);
      if (!found) throw new Error(`no pull_request ${action} example in @octokit/webhooks-examples`);
      const payload = structuredClone(found);
      payload.number = number;
      payload.installation = { id: gh.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
      const repo = payload.repository as Record<string, unknown>;
      Object.assign(repo, { name: gh.repo, full_name: `${gh.owner}/${gh.repo}`, default_branch: "main" });
      Object.assign(repo.owner as Record<string, unknown>, { login: gh.owner });
      const pull = payload.pull_request as Record<string, unknown>;
      Object.assign(pull, { number, state: "open", draft: options.draft ?? false, merged: false });
      const head = pull.head as Record<string, unknown>;
      Object.assign(head, { ref: options.headRef ?? "feature", sha: pr.head.sha, repo: structuredClone(repo) });
      const base = pull.base as Record<string, unknown>;
      Object.assign(base, { ref: "main", sha: pr.base.sha, repo: structuredClone(repo) });
      (payload.sender as Record<string, unknown>).login = "alice";
      return payload;
    },
  };
  return pr;
}
