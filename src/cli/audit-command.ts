// undrift audit [--repo owner/name] [--since 24h|2026-11-30] [--limit N] [--output text|json]:
// the audit trail from Redis (REDIS_URL), oldest first.
import { parseServerEnv } from "../config/server-env.ts";
import { createRedisConnection } from "../queue/connection.ts";
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
  const redis = createRedisConnection({ role: "producer", url: env.redisUrl, name: "undrift-audit" });
  try {
    const records = await readAudit({
      redis,
      limit,
      ...(args.repo ? { repo: args.repo } : {}),
      ...(since ? { since } : {}),
    });
    process.stdout.write(output === "json" ? formatAuditJson(records) : formatAudit(records));
    return 0;
  } finally {
    // At once, sent or not: a Redis that cannot be reached must not keep the command waiting.
    redis.disconnect();
  }
}
