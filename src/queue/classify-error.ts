// The one place a scan's error is judged (STYLE.md habit 2): permanent errors
// fail the job for good and are reported to the repository; transient ones are
// rethrown so BullMQ retries with backoff.
//
//   permanent: the config, the cluster registry, the target's files, a refused
//              cluster, the API server's 401/403 and other 4xx answers
//   transient: an unreachable cluster, 5xx, 429, 408/409/410, network errors,
//              timeouts, and what the GitHub side's hook says is transient
//
// An error this module does not know counts as transient: a bug fails each
// retry the same way and is reported after the last one, while an outage
// nobody foresaw still gets its retries. Retries are bounded by `attempts`.
import { ClusterAccessError } from "../config/cluster-registry.ts";
import { ConfigError } from "../config/config-error.ts";
import { LabelSelectorError } from "../config/parse-label-selector.ts";
import { DuplicateObjectError, UnknownKindError } from "../desired/finalize-desired.ts";
import { RenderError } from "../desired/render-error.ts";
import { ToolNotFoundError } from "../desired/tools.ts";
import { IgnoreRuleError } from "../drift/ignore-rules.ts";
import { ClusterUnreachableError, KubeApiError, KubeconfigError } from "../live/errors.ts";
import { YamlEditError } from "../remediate/codify/yaml/yaml-edit-error.ts";
import { UnknownTargetError } from "../stages/scan/scan-target.ts";
import { InvalidJobError } from "./jobs.ts";

/** permanent: fail now and report; transient: retry with backoff. */
export type ErrorClass = "permanent" | "transient";

/** The GitHub side's judgement of its own errors: true transient, false permanent, undefined "not mine". */
export type IsTransient = (error: unknown) => boolean | undefined;

const PERMANENT: ReadonlyArray<abstract new (...args: never[]) => Error> = [
  ConfigError,
  ClusterAccessError,
  KubeconfigError,
  UnknownTargetError,
  UnknownKindError,
  DuplicateObjectError,
  RenderError,
  IgnoreRuleError,
  LabelSelectorError,
  YamlEditError,
  ToolNotFoundError,
  InvalidJobError,
];

// Node's and undici's codes for a connection that failed or broke.
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** Whether `error` is worth a retry. `isTransient` is asked first; causes are followed through wrappers. */
export function classifyError(error: unknown, isTransient?: IsTransient): ErrorClass {
  return classify(error, isTransient, 0);
}

function classify(error: unknown, isTransient: IsTransient | undefined, depth: number): ErrorClass {
  const verdict = isTransient?.(error);
  if (verdict !== undefined) return verdict ? "transient" : "permanent";
  if (PERMANENT.some((type) => error instanceof type)) return "permanent";
  if (error instanceof ClusterUnreachableError) return "transient";
  const status = httpStatus(error);
  if (status !== undefined) return statusClass(status);
  if (isNetworkError(error)) return "transient";
  // Wrappers (RevertError, fetch's TypeError) carry the error that decides in `cause`.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause !== undefined && depth < 8) return classify(cause, isTransient, depth + 1);
  return "transient";
}

// KubeApiError, and any client error with a numeric HTTP status (Octokit's RequestError has one).
function httpStatus(error: unknown): number | undefined {
  if (error instanceof KubeApiError) return error.status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 600 ? status : undefined;
}

function statusClass(status: number): ErrorClass {
  if (status >= 500) return "transient";
  // Timeout, conflict (a write raced another), expired list continue token, too early, too many requests.
  if ([408, 409, 410, 425, 429].includes(status)) return "transient";
  return "permanent";
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError" || error.name === "TimeoutError") return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && NETWORK_CODES.has(code);
}
