// The worker's side of "who changed it": a scan's report (or a preview's
// drift-now report) joined to the cluster's records of writes, read from the
// worker's own Redis connection under the queue prefix, where the web
// process's recorder keeps them. Everything downstream (check run, tracking
// issue, codify and revert bodies, the preview comment, the audit entry) then
// names the person from the same report. A failed read costs the report its
// actors, said in one log line, never the scan: who changed it is an addition.
import type { DriftReport } from "../model/types.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { readReportActors } from "../state/read-report-actors.ts";
import { writeRecords } from "../state/write-records.ts";

/** The report with its actors, or as it was when the records cannot be read. */
export async function attributeScan(params: {
  /** The worker's: its Redis connection and queue prefix, its log. */
  deps: { queues: Pick<UndriftQueues, "connection" | "prefix">; log: QueueLog };
  cluster: string;
  report: DriftReport;
  /** Named in the log line. */
  job: { repo: string; target?: string };
}): Promise<DriftReport> {
  const { deps, cluster, report } = params;
  const records = writeRecords({ redis: deps.queues.connection, prefix: deps.queues.prefix });
  try {
    return await readReportActors({ records, cluster, report });
  } catch (error) {
    deps.log.warn(
      { err: error, repo: params.job.repo, target: params.job.target ?? report.target, cluster },
      "attribution: the records of writes could not be read, so this report does not say who changed what",
    );
    return report;
  }
}
