// The Octokit the app acts on GitHub with: Probot's (throttling, retries,
// pagination, config), with two of the retry plugin's habits changed, so that
// a scan retried after a GitHub failure never writes a thing twice and never
// comes back sooner than GitHub asked:
//   - a POST that creates something GitHub shows (an issue, a comment, a pull
//     request, a check run, a ref) is not re-sent in place after a 5xx or a
//     lost answer: GitHub may have acted before its front end failed, and a
//     blind re-send would create a duplicate. The error goes to the queue,
//     whose retry runs the scan again, and the scan's ensure-* steps find what
//     the first attempt created. Reads, edits (PATCH, PUT) and the
//     content-addressed POSTs (trees, commits, blobs, tokens) are retried in place.
//   - every answer is counted by status on /metrics, and an installation's
//     x-ratelimit-remaining kept as a gauge (src/metrics/).
//   - a 429 is not re-sent in place: the retry plugin would wait 1s, 4s, 9s
//     whatever Retry-After said. It goes to the queue as a rate-limited
//     GitHubError, which delays the job's retry by at least Retry-After
//     (src/queue/retry-backoff.ts). So do a secondary rate limit and a used-up
//     quota, which the throttling plugin sees first (app-throttle.ts).
//   - the throttling is undrift's own (app-throttle.ts): limiters in this
//     process, whatever Probot hands over, never a Bottleneck cluster on Redis
//     whose keys expire when GitHub is idle.
import { ProbotOctokit } from "probot";
import { metrics } from "../metrics/undrift-metrics.ts";
import { appThrottle } from "./app-throttle.ts";

// The retry plugin's own list (400, 401, 403, 404, 410, 422, 451), and 429.
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

// POSTs a re-send cannot duplicate: git objects are named by their content, and a token is a token.
const SAFE_POSTS = [
  /^\/repos\/[^/]+\/[^/]+\/git\/(trees|commits|blobs)$/,
  /^\/app\/installations\/[^/]+\/access_tokens$/,
];

/** Whether a re-send of this request after a lost answer could create something twice. */
export function createsOnResend(method: string, url: string): boolean {
  if (method.toUpperCase() !== "POST") return false;
  const path = new URL(url, "https://api.github.com").pathname.replace(/^\/api\/v3(?=\/)/, "");
  return !SAFE_POSTS.some((safe) => safe.test(path));
}

type Hooked = {
  hook: {
    before(name: "request", hook: (options: RequestLike) => void): void;
    after(name: "request", hook: (response: ResponseLike) => void): void;
    error(name: "request", hook: (error: Error & { status?: number; response?: ResponseLike }) => never): void;
  };
};
interface ResponseLike {
  status: number;
  headers: Record<string, string | number | undefined>;
}
interface RequestLike {
  method: string;
  url: string;
  request?: Record<string, unknown>;
}

/** Octokit plugin: such POSTs get `request.retries: 0`, which the retry plugin honours. */
function noResendOfCreates(octokit: Hooked): void {
  octokit.hook.before("request", (options) => {
    if (createsOnResend(options.method, options.url)) options.request = { ...options.request, retries: 0 };
  });
}

/** Octokit plugin: each answer counted by status; an installation's rate limit left, as GitHub last said it. */
function countRequests(octokit: Hooked, options: { auth?: { installationId?: number | string } }): void {
  const installation = options.auth?.installationId;
  const seen = (response: ResponseLike | undefined, status: string) => {
    metrics.githubRequests.inc({ status });
    const remaining = Number(response?.headers["x-ratelimit-remaining"]);
    if (installation !== undefined && response?.headers["x-ratelimit-remaining"] !== undefined && remaining >= 0)
      metrics.githubRateLimit.set({ installation: String(installation) }, remaining);
  };
  octokit.hook.after("request", (response) => seen(response, String(response.status)));
  octokit.hook.error("request", (error) => {
    seen(error.response, error.status ? String(error.status) : "error");
    throw error;
  });
}

/** Probot's Octokit as undrift runs it; give it to Probot as its `Octokit` option. */
export const AppOctokit = ProbotOctokit.plugin(noResendOfCreates, countRequests).defaults(
  (options: { retry?: Record<string, unknown>; throttle?: Record<string, unknown> } & Record<string, unknown>) => ({
    ...options,
    retry: { doNotRetry: DO_NOT_RETRY, ...options.retry },
    throttle: appThrottle(options.throttle),
  }),
);
