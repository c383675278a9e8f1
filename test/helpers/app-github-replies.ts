// How the fake repository answers (app-github.ts): GitHub's conditional GETs,
// its 404, and the numbers issues and pull requests share.
import { createHash } from "node:crypto";
import type { FakeIssue, FakePull, FakeRepoState } from "./app-github.ts";
import type { LoggedRequest, MockReply } from "./github-mock.ts";

export const notFound: MockReply = { status: 404, body: { message: "Not Found" } };

/** Issues and pull requests share one sequence of numbers, as on GitHub. */
export function issueNumber(state: FakeRepoState): number {
  return state.issues.length + state.pulls.length + 1;
}

/** GitHub's conditional GET: an ETag of the body, and 304 when If-None-Match still matches it. */
export function conditional(body: (req: LoggedRequest) => unknown) {
  return (req: LoggedRequest): MockReply => {
    const data = body(req);
    const etag = `W/"${createHash("sha1").update(JSON.stringify(data)).digest("hex")}"`;
    return req.headers["if-none-match"] === etag
      ? { status: 304, headers: { etag } }
      : { body: data, headers: { etag } };
  };
}

/** A pull request as the issues list shows it. */
export function pullAsIssue(pr: FakePull, bot: string): FakeIssue {
  return {
    id: pr.id,
    number: pr.number,
    title: pr.title,
    body: pr.body,
    state: pr.state,
    labels: pr.labels.map((name) => ({ name })),
    html_url: pr.html_url,
    user: { login: bot },
    pull_request: { url: pr.html_url },
  };
}

/** A stable fake SHA. */
export function sha40(seed: string): string {
  return createHash("sha1").update(seed).digest("hex");
}
