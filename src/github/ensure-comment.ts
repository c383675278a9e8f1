// One comment of ours on an issue or pull request, renovate's ensureComment:
// the caller finds it by its hidden marker (listComments), and this posts it
// when there is none, edits it when what it says changed, and otherwise
// writes nothing, so a redelivered job never posts a second one.
import type { Writes } from "./github-writes.ts";

/** A comment of ours, found again by its marker. */
export interface FoundComment {
  id: number;
  url: string;
  body?: string | undefined;
}

export interface EnsureCommentParams {
  writes: Writes;
  /** The issue or pull request. */
  number: number;
  /** The whole body, marker first. */
  body: string;
  /** Ours, when found; undefined posts a new comment. */
  existing: FoundComment | undefined;
  /** Whether `existing` says `body` already: by default, its text is the same. */
  unchanged?: boolean;
  /** What the writes are called, in records and errors: `create preview part 1 on #12`. */
  names: { create: string; update: string };
}

export interface EnsureCommentResult {
  action: "created" | "updated" | "unchanged";
  /** Absent only when a dry run would create it. */
  url?: string;
}

export async function ensureComment(params: EnsureCommentParams): Promise<EnsureCommentResult> {
  const { writes, existing, body } = params;
  if (existing && (params.unchanged ?? existing.body === body)) return { action: "unchanged", url: existing.url };
  if (existing) {
    await writes.request(
      "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
      { comment_id: existing.id, body },
      { summary: params.names.update },
    );
    return { action: "updated", url: existing.url };
  }
  const created = await writes.request(
    "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    { issue_number: params.number, body },
    { summary: params.names.create },
  );
  return { action: "created", ...(created ? { url: created.html_url } : {}) };
}
