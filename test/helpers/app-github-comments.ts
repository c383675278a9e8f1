// Comments on one pull request of the fake repository (app-github.ts), as the
// merge of a revert pull request writes them: listed, posted, edited in place.
import type { FakeRepo } from "./app-github.ts";
import type { GitHubMock } from "./github-mock.ts";

/** Declares the comment calls on pull request `number` for one phase; comments are kept in `gh.state.comments`. */
export function expectPrComments(
  github: GitHubMock,
  gh: FakeRepo,
  number: number,
  counts: { list?: number; create?: number; update?: number },
): void {
  const base = `/repos/${gh.owner}/${gh.repo}`;
  const html = `https://github.com/${gh.owner}/${gh.repo}/pull/${number}`;
  const shown = () =>
    gh.state.comments
      .map((c, i) => ({ ...c, id: 7000 + i }))
      .filter((c) => c.issue === number)
      .map((c) => ({ id: c.id, body: c.body, html_url: `${html}#issuecomment-${c.id}`, user: { login: "bot" } }));
  if (counts.list) {
    github.expect({
      method: "GET",
      path: `${base}/issues/${number}/comments`,
      times: counts.list,
      reply: () => ({ body: shown() }),
    });
  }
  if (counts.create) {
    github.expect({
      method: "POST",
      path: `${base}/issues/${number}/comments`,
      times: counts.create,
      reply: (req) => {
        gh.state.comments.push({ issue: number, body: (req.json as { body: string }).body });
        return { status: 201, body: shown().at(-1) };
      },
    });
  }
  if (counts.update) {
    github.expect({
      method: "PATCH",
      path: `${base}/issues/comments/${7000 + gh.state.comments.findIndex((c) => c.issue === number)}`,
      times: counts.update,
      reply: (req) => {
        const at = Number(req.path.split("/").at(-1)) - 7000;
        const comment = gh.state.comments[at];
        if (comment) comment.body = (req.json as { body: string }).body;
        return { body: shown().find((c) => c.id === at + 7000) };
      },
    });
  }
}
