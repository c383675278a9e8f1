// The sticky preview comment of a pull request, in numbered parts: each part
// carries `<!-- undrift:preview pr=<n> part=<i> digest=<hash> -->` on its first
// line, is found by it and edited in place (never a new comment per push),
// and left alone when its digest says nothing changed. Parts left over from a
// longer earlier preview are deleted, and so is a second copy of a part (two
// workers that raced before the lock existed, a redelivered write).
// Only comments by a bot that begin with the marker count as ours: a person
// quoting the comment quotes the marker too, behind `> `.

import { bodyLimit, digestOf, formatMarker, readMarker } from "../report/markers.ts";
import { ensureComment } from "./ensure-comment.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { createWrites, type WriteRecord } from "./github-writes.ts";
import { listComments } from "./list-comments.ts";

/** Room a part's marker line takes; renderers make parts of at most `bodyLimit - previewMarkerRoom`. */
export const previewMarkerRoom = 100;

export interface PreviewCommentsParams extends RepoRef {
  octokit: GitHubClient;
  number: number;
  /** The parts in order, without markers; empty deletes every part. */
  parts: string[];
  /** false: write only over parts already there (nothing to say yet on a PR with no comment). Default true. */
  createIfAbsent?: boolean;
  dryRun?: boolean;
}

export interface PreviewCommentsResult {
  /** `created preview part 1 on #12`, one per write. */
  actions: string[];
  /** The first part's address, when there is one. */
  url?: string;
  writes: WriteRecord[];
}

interface Found {
  id: number;
  part: number;
  digest: string | undefined;
  url: string;
}

export async function ensurePreviewComments(params: PreviewCommentsParams): Promise<PreviewCommentsResult> {
  const { number } = params;
  const writes = createWrites(params);
  const actions: string[] = [];
  const found = await findParts(params);
  if (found.length === 0 && params.createIfAbsent === false) return { actions, writes: writes.records };
  const byPart = new Map<number, Found>();
  const extra: Found[] = [];
  for (const comment of found) {
    if (byPart.has(comment.part) || comment.part > params.parts.length) extra.push(comment);
    else byPart.set(comment.part, comment);
  }
  let url: string | undefined;
  for (const [index, text] of params.parts.entries()) {
    const part = index + 1;
    const digest = digestOf(text);
    const marker = formatMarker("preview", { pr: String(number), part: String(part), digest });
    const body = `${marker}\n${text}`;
    if (body.length > bodyLimit)
      throw new RangeError(`preview part ${part} of #${number} has ${body.length} characters`);
    const existing = byPart.get(part);
    const what = `preview part ${part} on #${number}`;
    // The digest, not the text: GitHub may hand the body back with other line endings.
    const unchanged = existing?.digest === digest;
    const names = { create: `create ${what}`, update: `update ${what}` };
    const ensured = await ensureComment({ writes, number, body, existing, unchanged, names });
    url ??= ensured.url;
    if (ensured.action !== "unchanged") actions.push(`${ensured.action} ${what}`);
  }
  for (const comment of extra) {
    const what = `preview part ${comment.part} on #${number}`;
    await writes.request(
      "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}",
      { comment_id: comment.id },
      { summary: `delete ${what}` },
    );
    actions.push(`deleted ${what}`);
  }
  return { actions, ...(url ? { url } : {}), writes: writes.records };
}

/** Our parts among the pull request's comments, oldest first (every page: a busy PR has more than 100). */
async function findParts(params: PreviewCommentsParams): Promise<Found[]> {
  const { number } = params;
  const comments = await listComments({ ...params, step: `list comments of #${number}`, allPages: true });
  const found: Found[] = [];
  for (const comment of comments) {
    const body = comment.body ?? "";
    if (comment.user?.type !== "Bot" || !body.startsWith("<!-- undrift:preview ")) continue;
    const marker = readMarker(body, "preview");
    const part = Number(marker?.part);
    if (marker?.pr !== String(number) || !Number.isInteger(part) || part < 1) continue;
    found.push({ id: Number(comment.id), part, digest: marker.digest, url: comment.html_url });
  }
  return found;
}
