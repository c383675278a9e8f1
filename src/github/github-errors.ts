// GitHub's answers classified once, so the queue can decide: a permission or
// validation problem fails the job for good, a 5xx, a network failure or a
// rate limit is retried later (with the wait GitHub asked for, when it did).
import { parseRetryAfter } from "../model/retry-after.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { type RepoRef, repoName } from "./github-client.ts";
import { SnapshotError } from "./snapshot-error.ts";

/**
 * - permission: 401, 403 without a rate limit, 404 (GitHub answers 404 where the app may not see a thing).
 * - invalid: the request was refused as it stands (400, 422, other 4xx); a retry would be refused again.
 * - rate-limited: 429, or 403 with an exhausted quota or a secondary rate limit; retry after `retryAfterMs`.
 * - transient: 5xx, 408, 409 (a ref moved under us), or no answer at all (network, timeout).
 */
export type GitHubErrorKind = "permission" | "invalid" | "rate-limited" | "transient";

export interface GitHubErrorClass {
  kind: GitHubErrorKind;
  status?: number;
  retryAfterMs?: number;
}

/** A GitHub request that failed, named by repository and step: `acme/gitops: create check run undrift/infra: 403 ...`. */
export class GitHubError extends UndriftError {
  override name = "GitHubError";
  readonly kind: GitHubErrorKind;
  readonly status?: number;
  readonly step: string;
  readonly repository: string;
  readonly retryAfterMs?: number;

  constructor(params: { repo: RepoRef; step: string; error: unknown }) {
    const found = classifyGitHubError(params.error) ?? { kind: "transient" as const };
    const why = params.error instanceof Error ? params.error.message : String(params.error);
    const hint = found.status === 404 ? " (missing, or the app is not allowed to see it)" : "";
    super(`${repoName(params.repo)}: ${params.step}: ${found.status ?? "no response"}${hint}: ${why}`, {
      cause: params.error,
    });
    this.kind = found.kind;
    this.step = params.step;
    this.repository = repoName(params.repo);
    if (found.status !== undefined) this.status = found.status;
    if (found.retryAfterMs !== undefined) this.retryAfterMs = found.retryAfterMs;
  }

  /** Worth another attempt later: transient or rate-limited. */
  get retryable(): boolean {
    return this.kind === "transient" || this.kind === "rate-limited";
  }

  get permanent(): boolean {
    return !this.retryable;
  }
}

interface ErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | undefined> };
}

/** How a GitHub failure should be handled; undefined when `error` did not come from an HTTP request (a bug, not GitHub). */
export function classifyGitHubError(error: unknown, now: number = Date.now()): GitHubErrorClass | undefined {
  if (error instanceof GitHubError) {
    return { kind: error.kind, ...optional("status", error.status), ...optional("retryAfterMs", error.retryAfterMs) };
  }
  const e = (error ?? {}) as ErrorLike;
  if (typeof e.status !== "number") return undefined;
  const status = e.status;
  const headers = e.response?.headers ?? {};
  // Octokit reports a request that never got an answer as status 500 without a response.
  if (!e.response) return { kind: "transient", status };
  const retryAfterMs = retryAfter(headers, now);
  const message = String(e.message ?? "").toLowerCase();
  const limited =
    status === 429 || (status === 403 && (headers["x-ratelimit-remaining"] === "0" || message.includes("rate limit")));
  // GitHub: after a secondary limit without retry-after, wait at least a minute (retrying sooner extends it).
  const wait = retryAfterMs ?? (message.includes("secondary rate limit") ? SECONDARY_FALLBACK_MS : undefined);
  if (limited) return { kind: "rate-limited", status, ...optional("retryAfterMs", wait) };
  if (status >= 500 || status === 408 || status === 409) return { kind: "transient", status };
  if (status === 401 || status === 403 || status === 404) return { kind: "permission", status };
  return { kind: "invalid", status };
}

/** The wait after a secondary rate limit that named none, as GitHub's docs and Octokit's throttling take it. */
const SECONDARY_FALLBACK_MS = 60_000;

/** Runs one GitHub request (or a few that form one step), turning its failure into a GitHubError named after the step. */
export async function githubStep<T>(params: { repo: RepoRef; step: string; run: () => Promise<T> }): Promise<T> {
  try {
    return await params.run();
  } catch (error) {
    if (error instanceof GitHubError || classifyGitHubError(error) === undefined) throw error;
    throw new GitHubError({ repo: params.repo, step: params.step, error });
  }
}

/**
 * The queue's hook (its classifyError takes it as `isTransient`): true to retry,
 * false to fail for good, undefined for an error that is not the GitHub side's.
 * A refused snapshot is permanent: the same commit yields the same archive.
 */
export function isTransientGitHubError(error: unknown): boolean | undefined {
  if (error instanceof GitHubError) return error.retryable;
  if (error instanceof SnapshotError) return false;
  // Octokit's RequestError, thrown by a caller that did not go through githubStep.
  if (error instanceof Error && error.name === "HttpError") {
    const found = classifyGitHubError(error);
    return found ? found.kind === "transient" || found.kind === "rate-limited" : undefined;
  }
  return undefined;
}

/** The HTTP status of a failed request, when it had one: for the few answers a step expects (404: absent, 422: exists). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ErrorLike | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

function retryAfter(headers: Record<string, string | undefined>, now: number): number | undefined {
  const asked = parseRetryAfter(headers["retry-after"], now);
  if (asked !== undefined) return asked;
  const reset = Number(headers["x-ratelimit-reset"]);
  if (headers["x-ratelimit-remaining"] === "0" && Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
  return undefined;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
