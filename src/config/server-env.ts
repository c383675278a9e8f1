// The server's own environment, parsed once at the edge of `undrift web`,
// `worker` and `start`. Probot reads its variables itself (APP_ID, PRIVATE_KEY
// or PRIVATE_KEY_PATH, WEBHOOK_SECRET, GHE_HOST, PORT); these are undrift's.
// An error names the variable and never echoes its value: REDIS_URL may hold a password.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { UndriftError } from "../model/undrift-error.ts";
import { DEFAULT_REDIS_URL } from "./redis-url.ts";

/** Where `undrift worker` serves /healthz, /readyz and /metrics: OpenTelemetry's Prometheus port, clear of Prometheus' own 9090. */
export const DEFAULT_WORKER_PORT = 9464;

const blankIsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const serverEnvSchema = z.object({
  REDIS_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((value) => URL.canParse(value) && /^rediss?:$/.test(new URL(value).protocol), {
        error: "expected a redis:// or rediss:// URL",
      })
      .default(DEFAULT_REDIS_URL),
  ),
  UNDRIFT_CLUSTERS: z.preprocess(blankIsUnset, z.string().optional()),
  UNDRIFT_SNAPSHOT_DIR: z.preprocess(blankIsUnset, z.string().default(join(tmpdir(), "undrift-snapshots"))),
  UNDRIFT_CONCURRENCY: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a whole number from 1 to 64" })
      .int({ error: "expected a whole number from 1 to 64" })
      .min(1, { error: "expected a whole number from 1 to 64" })
      .max(64, { error: "expected a whole number from 1 to 64" })
      .default(2),
  ),
  UNDRIFT_WORKER_PORT: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: "expected a port number from 0 to 65535" })
      .int({ error: "expected a port number from 0 to 65535" })
      .min(0, { error: "expected a port number from 0 to 65535" })
      .max(65535, { error: "expected a port number from 0 to 65535" })
      .default(DEFAULT_WORKER_PORT),
  ),
  HOST: z.preprocess(blankIsUnset, z.string().optional()),
  UNDRIFT_BASE_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) && !/[?#]/.test(value), {
        error: "expected the http:// or https:// URL GitHub reaches the server at, without a query",
      })
      .optional(),
  ),
});

/** The parsed environment: REDIS_URL, the cluster registry's path, the snapshot cache, scans at once per cluster, the worker's port. */
export interface ServerEnv {
  redisUrl: string;
  /** UNDRIFT_CLUSTERS; absent only where `requireClusters` was false (the web process). */
  clustersFile?: string;
  snapshotDir: string;
  concurrency: number;
  /** UNDRIFT_WORKER_PORT: the probe and metrics port of `undrift worker` (0: any free port). */
  workerPort: number;
  /** HOST (Probot's variable), where the worker's port listens; every interface by default, for probes and scrapes. */
  workerHost: string;
  /**
   * UNDRIFT_BASE_URL, without a trailing slash: the address GitHub and browsers reach the web process at
   * (a path prefix allowed); the setup page registers the webhook URL under it.
   */
  baseUrl?: string;
  /** GitHub's web host (GHE_HOST, Probot's variable; github.com without it): a reconciler's source URL names it. */
  githubHost: string;
}

/** A variable that is missing or wrong; a user error, printed as one line. */
export class ServerEnvError extends UndriftError {
  override name = "ServerEnvError";
  // Only the process start throws it: no job sees it.
  readonly permanent = true;
}

/** Parses undrift's variables from `env`; workers pass `requireClusters`, as only they reach clusters. */
export function parseServerEnv(env: NodeJS.ProcessEnv = process.env, options: { requireClusters?: boolean } = {}) {
  const result = serverEnvSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ServerEnvError(`${String(issue?.path[0] ?? "environment")}: ${issue?.message ?? "invalid"}`, {
      cause: result.error,
    });
  }
  const parsed = result.data;
  if (options.requireClusters && parsed.UNDRIFT_CLUSTERS === undefined) {
    throw new ServerEnvError("UNDRIFT_CLUSTERS: required: the path of the cluster registry (YAML) workers scan with");
  }
  const serverEnv: ServerEnv = {
    redisUrl: parsed.REDIS_URL,
    snapshotDir: parsed.UNDRIFT_SNAPSHOT_DIR,
    githubHost: env.GHE_HOST?.trim() || "github.com",
    concurrency: parsed.UNDRIFT_CONCURRENCY,
    workerPort: parsed.UNDRIFT_WORKER_PORT,
    workerHost: parsed.HOST ?? "0.0.0.0",
  };
  if (parsed.UNDRIFT_CLUSTERS !== undefined) serverEnv.clustersFile = parsed.UNDRIFT_CLUSTERS;
  if (parsed.UNDRIFT_BASE_URL !== undefined) serverEnv.baseUrl = parsed.UNDRIFT_BASE_URL.replace(/\/+$/, "");
  return serverEnv;
}
