// Says why, then closes: the comment goes first, so whoever gets the "closed"
// notification finds the reason already there. A drift PR is closed through
// the pulls route, an issue through the issues route with its state reason.
import type { Writes } from "./github-writes.ts";

export interface CommentThenCloseParams {
  writes: Writes;
  /** A pull request, or an issue closed as completed or not planned. */
  close: { pullRequest: number } | { issue: number; reason: "completed" | "not_planned" };
  /** `pull request #3`, `tracking issue #4`: names the steps (`comment on tracking issue #4`). */
  name: string;
  /** Added to the records' summaries: ` of infra`. */
  of?: string;
  /** Added to the comment's record: `: drift gone`. */
  why?: string;
  comment: string;
}

export async function commentThenClose(params: CommentThenCloseParams): Promise<void> {
  const { writes, close, name, of = "", why = "" } = params;
  const number = "pullRequest" in close ? close.pullRequest : close.issue;
  await writes.request(
    "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    { issue_number: number, body: params.comment },
    { summary: `comment on ${name}${of}${why}`, step: `comment on ${name}` },
  );
  const names = { summary: `close ${name}${of}`, step: `close ${name}` };
  if ("pullRequest" in close) {
    await writes.request(
      "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
      { pull_number: number, state: "closed" },
      names,
    );
    return;
  }
  await writes.request(
    "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
    { issue_number: number, state: "closed", state_reason: close.reason },
    names,
  );
}
