// undrift audit [--repo owner/name] [--since 24h|2026-11-30] [--limit N] [--output text|json]:
// the audit trail from Redis (REDIS_URL), oldest first, from the stream of the
// server's queue prefix (UNDRIFT_RECORDS_PREFIX, default undrift), as scans read records.
import { printableRedisUrl } from "../config/redis-url.ts";
import { parseServerEnv } from "../config/server-env.ts";
import { createRedisConnection, isRedisConnectionError, RedisUnreachableError } from "../queue/connection.ts";
import { parseSince } from "../queue/parse-since.ts";
import { readAudit } from "../state/audit-log.ts";
import { audit, auditOutputs } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { formatAudit, formatAuditJson } from "./format-audit.ts";
import { parseCommandArgs } from "./parse-command-args.ts";

export async function auditCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, audit.flags);
  const output = args.output as (typeof auditOutputs)[number];
  if (!auditOutputs.includes(output)) {
    throw new UsageError(`--output: expected one of ${auditOutputs.join(", ")}, got "${args.output}"`);
  }
  const limit = Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit: expected a positive whole number, got "${args.limit}"`);
  if (args.repo !== undefined && !/^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/.test(args.repo))
    throw new UsageError(`--repo: expected owner/name, got "${args.repo}"`);
  const since = args.since === undefined ? undefined : parseSince(args.since);
  const env = parseServerEnv(process.env);
  // Silent: a command says an outage once, as its error, not as a server's log line.
  const silent = { info() {}, warn() {}, error() {} };
  const redis = createRedisConnection({ role: "producer", url: env.redisUrl, name: "undrift-audit", log: silent });
  let lost: Error | undefined;
  redis.on("error", (error: Error) => {
    lost ??= error;
  });
  try {
    // The first connect attempt decides: a Redis that refuses is said at once, not after the producer's retries.
    await new Promise((resolve, reject) => {
      redis.once("ready", resolve);
      redis.once("error", reject);
    });
    const records = await readAudit({
      redis,
      // The stream is `<queue prefix>:audit` (state/record-audit.ts); the CLI is told the prefix as a scan is.
      key: `${process.env.UNDRIFT_RECORDS_PREFIX?.trim() || "undrift"}:audit`,
      limit,
      ...(args.repo ? { repo: args.repo } : {}),
      ...(since ? { since } : {}),
    });
    process.stdout.write(output === "json" ? formatAuditJson(records) : formatAudit(records));
    return 0;
  } catch (error) {
    if (!isRedisConnectionError(error)) throw error;
    const why = (lost ?? (error as Error)).message;
    throw new RedisUnreachableError(`REDIS_URL: Redis at ${printableRedisUrl(env.redisUrl)} is unreachable (${why})`, {
      cause: error,
    });
  } finally {
    // At once, sent or not: a Redis that cannot be reached must not keep the command waiting.
    redis.disconnect();
  }
}
