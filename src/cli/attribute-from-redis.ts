// The CLI's side of attribution: with REDIS_URL set, a scan reads the records
// of writes that undrift's admission recorder (or audit backend) kept in that
// Redis, and names the person behind each drifted field. Without REDIS_URL the
// report is as before: managers and times only. Records are keyed under
// UNDRIFT_RECORDS_PREFIX (default `undrift`, the web process's queue prefix).
// main.ts loads this file only when REDIS_URL is set, so a plain scan starts
// without Redis' client.

import type { Redis } from "ioredis";
import { printableRedisUrl } from "../config/redis-url.ts";
import { wantsRecords } from "../drift/attribute-actors.ts";
import { createRedisConnection, isRedisConnectionError } from "../queue/connection.ts";
import { readReportActors } from "../state/read-report-actors.ts";
import { writeRecords } from "../state/write-records.ts";
import type { Attribution } from "./scan-command.ts";

/** Reads records for the reports of one command; `close()` when done. Undefined without REDIS_URL. */
export function recordsFromEnv(env: NodeJS.ProcessEnv = process.env): Attribution | undefined {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  // Connected on the first report with drift to attribute, not before: a scan that refuses its flags, fails on its
  // kubeconfig or finds no drift never opens Redis, so nothing is left retrying to keep the process alive.
  let redis: Redis | undefined;
  let records: ReturnType<typeof writeRecords> | undefined;
  const open = () => {
    if (records) return records;
    const silent = { info() {}, warn() {}, error() {} };
    redis = createRedisConnection({ role: "producer", url, name: "undrift-scan-records", log: silent });
    // The command says an outage once, as its error (below), not as a stream of connection lines.
    redis.on("error", () => {});
    records = writeRecords({ redis, prefix: env.UNDRIFT_RECORDS_PREFIX?.trim() || "undrift" });
    return records;
  };
  let warned = false;
  return {
    async attribute(report, cluster) {
      if (!report.resources.some(wantsRecords)) return report;
      try {
        return await readReportActors({ records: open(), cluster, report });
      } catch (error) {
        if (!isRedisConnectionError(error)) throw error;
        // Who changed it is an addition to the report, not a reason to lose it: say once that it is
        // missing and report the drift with managers and times only.
        if (!warned) {
          warned = true;
          process.stderr.write(
            `undrift: REDIS_URL: Redis at ${printableRedisUrl(url)} is unreachable, so this report does not say who changed what (unset REDIS_URL to scan without)\n`,
          );
        }
        return report;
      }
    },
    close: () => redis?.disconnect(),
  };
}
