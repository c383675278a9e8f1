// One POST of a rendered notice to a channel's URL. What the channel answered
// decides the retry: 2xx is done; 429 and 5xx (and 408) are retried, no
// sooner than the Retry-After it sent; any other 4xx is permanent (a revoked
// Slack webhook answers 404 or 410, a bad payload 400: retrying changes
// nothing). Errors name the channel and the status, never the URL, which
// holds the webhook's token.
import { parseRetryAfter } from "../../model/retry-after.ts";
import { UndriftError } from "../../model/undrift-error.ts";

/** A channel's answer that was not a success; `retryAfterMs` feeds the backoff (retry-backoff.ts). */
export class ChannelHttpError extends UndriftError {
  override name = "ChannelHttpError";
  readonly permanent: boolean;
  readonly status: number;
  readonly retryAfterMs?: number;

  constructor(message: string, options: { status: number; retryAfterMs?: number }) {
    super(message);
    this.status = options.status;
    this.permanent = options.status < 500 && options.status !== 429 && options.status !== 408;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** The channel could not be reached (refused, reset, timed out); retried. */
export class ChannelUnreachableError extends UndriftError {
  override name = "ChannelUnreachableError";
  readonly permanent = false;
}

// A channel that takes longer has a problem; the retry comes later.
const TIMEOUT_MS = 10_000;
// A Retry-After beyond this is not waited for in one step: the attempts spread over the rest.
const MAX_RETRY_AFTER_MS = 3_600_000;

export async function postNotice(params: {
  /** `channel "ops" (slack)`, for errors. */
  what: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}): Promise<{ status: number }> {
  let response: Response;
  try {
    response = await fetch(params.url, {
      method: "POST",
      body: params.body,
      headers: { "content-type": "application/json", "user-agent": "undrift", ...params.headers },
      // A redirect could carry the body (and its signature) to another host.
      redirect: "error",
      signal: AbortSignal.any([params.signal, AbortSignal.timeout(TIMEOUT_MS)]),
    });
  } catch (error) {
    if (params.signal.aborted) throw error;
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new ChannelUnreachableError(`${params.what}: not reachable (${code})`, { cause: error });
  }
  // Read the body, so the connection is reused; its text is not shown (a receiver may echo what it was sent).
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return { status: response.status };
  const asked = parseRetryAfter(response.headers.get("retry-after"));
  const retryAfterMs = asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS);
  throw new ChannelHttpError(`${params.what}: answered ${response.status}`, {
    status: response.status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
