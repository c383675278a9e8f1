// The pull request side of the fake repository (app-github.ts): the drift PR's
// lookup, its Git Data API commit, branch, PR, labels, reviewers, and closing.
import type { FakePull, FakeRepoState, RepoCommit } from "./app-github.ts";
import { conditional, issueNumber, notFound, sha40 } from "./app-github-replies.ts";
import type { GitHubMock, LoggedRequest } from "./github-mock.ts";

export interface PullCounts {
  list?: number;
  tree?: number;
  commit?: number;
  ref?: number;
  moveRef?: number;
  create?: number;
  update?: number;
  labels?: number;
  reviewers?: number;
  comment?: number;
  deleteRef?: number;
}

/** Declares the pull request calls of one phase, answered from and recorded in `state`. */
export function expectPullCalls(
  ctx: { github: GitHubMock; base: string; html: string; state: FakeRepoState; nextId(): number; head(): RepoCommit },
  counts: PullCounts,
): void {
  const { github, base, html, state } = ctx;
  const number = state.pulls.find((p) => p.state === "open")?.number ?? issueNumber(state);
  const refOf = (req: LoggedRequest) => req.path.slice(`${base}/git/refs/`.length);
  if (counts.list) {
    github.expect({
      method: "GET",
      path: `${base}/pulls`,
      times: counts.list,
      reply: conditional((req) => {
        const head = req.query.head?.split(":")[1];
        return state.pulls
          .filter((pr) => (!head || pr.head.ref === head) && (!req.query.state || pr.state === req.query.state))
          .map(({ labels: _l, reviewers: _r, ...pr }) => pr);
      }),
    });
  }
  if (counts.tree) {
    github.expect({
      method: "POST",
      path: `${base}/git/trees`,
      times: counts.tree,
      reply: (req) => {
        state.trees.push(req.json as FakeRepoState["trees"][number]);
        return { status: 201, body: { sha: sha40(`tree${state.trees.length}`), tree: [], truncated: false } };
      },
    });
  }
  if (counts.commit) {
    github.expect({
      method: "POST",
      path: `${base}/git/commits`,
      times: counts.commit,
      reply: (req) => {
        state.commits.push(req.json as FakeRepoState["commits"][number]);
        return { status: 201, body: { sha: sha40(`commit${state.commits.length}`) } };
      },
    });
  }
  if (counts.ref) {
    github.expect({
      method: "POST",
      path: `${base}/git/refs`,
      times: counts.ref,
      reply: (req) => {
        const body = req.json as { ref: string; sha: string };
        state.refs.set(body.ref.replace(/^refs\//, ""), body.sha);
        return { status: 201, body: { ref: body.ref, object: { sha: body.sha } } };
      },
    });
  }
  if (counts.moveRef) {
    github.expect({
      method: "PATCH",
      path: `${base}/git/refs/heads/${state.pulls.find((p) => p.state === "open")?.head.ref ?? ""}`,
      times: counts.moveRef,
      reply: (req) => {
        state.refs.set(refOf(req), (req.json as { sha: string }).sha);
        return { body: { ref: `refs/${refOf(req)}` } };
      },
    });
  }
  if (counts.create) {
    github.expect({
      method: "POST",
      path: `${base}/pulls`,
      times: counts.create,
      reply: (req) => {
        const body = req.json as { title: string; head: string; base: string; body: string };
        const n = issueNumber(state);
        const pr: FakePull = {
          id: ctx.nextId(),
          number: n,
          state: "open",
          title: body.title,
          body: body.body,
          html_url: `${html}/pull/${n}`,
          head: { ref: body.head, sha: state.refs.get(`heads/${body.head}`) ?? "" },
          base: { ref: body.base, sha: ctx.head().sha },
          labels: [],
          reviewers: [],
        };
        state.pulls.push(pr);
        const { labels: _l, reviewers: _r, ...shown } = pr;
        return { status: 201, body: shown };
      },
    });
  }
  const pr = () => state.pulls.find((p) => p.number === number);
  if (counts.update) {
    github.expect({
      method: "PATCH",
      path: `${base}/pulls/${number}`,
      times: counts.update,
      reply: (req) => {
        const found = pr();
        if (!found) return notFound;
        Object.assign(found, req.json as Partial<FakePull>);
        return { body: found };
      },
    });
  }
  if (counts.labels) {
    github.expect({
      method: "POST",
      path: `${base}/issues/${number}/labels`,
      times: counts.labels,
      reply: (req) => {
        pr()?.labels.push(...(req.json as { labels: string[] }).labels);
        return { body: (pr()?.labels ?? []).map((name) => ({ name })) };
      },
    });
  }
  if (counts.reviewers) {
    github.expect({
      method: "POST",
      path: `${base}/pulls/${number}/requested_reviewers`,
      times: counts.reviewers,
      reply: (req) => {
        pr()?.reviewers.push(...((req.json as { reviewers?: string[] }).reviewers ?? []));
        return { status: 201, body: { number } };
      },
    });
  }
  if (counts.comment) {
    github.expect({
      method: "POST",
      path: `${base}/issues/${number}/comments`,
      times: counts.comment,
      reply: (req) => {
        state.comments.push({ issue: number, body: (req.json as { body: string }).body });
        return { status: 201, body: { id: ctx.nextId() } };
      },
    });
  }
  if (counts.deleteRef) {
    github.expect({
      method: "DELETE",
      path: `${base}/git/refs/heads/${pr()?.head.ref ?? ""}`,
      times: counts.deleteRef,
      reply: (req) => {
        state.refs.delete(refOf(req));
        return { status: 204 };
      },
    });
  }
}
