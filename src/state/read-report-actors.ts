// The cluster's records of writes for one report: read for each object whose
// actor the report can name (a drifted field's writer, a missing object's
// deleter), then joined by attributeActors. The CLI (REDIS_URL) and the
// worker (its own connection) both go through here, so they name the same
// person for the same field.
import { attributeActors, resourceKey, wantsRecords } from "../drift/attribute-actors.ts";
import { keyString } from "../model/object-key.ts";
import type { DriftReport } from "../model/types.ts";
import type { WriteRecord } from "../model/write-record.ts";
import type { WriteRecords } from "./write-records.ts";

/** The report with its actors; a read that fails rejects, so the caller decides how an outage is said. */
export async function readReportActors(params: {
  records: WriteRecords;
  cluster: string;
  report: DriftReport;
}): Promise<DriftReport> {
  const { records, cluster, report } = params;
  const wanted = report.resources.filter(wantsRecords);
  if (wanted.length === 0) return report;
  const byKey = new Map<string, WriteRecord[]>();
  for (const resource of wanted) {
    const key = resourceKey(resource);
    byKey.set(keyString(key), await records.forObject(cluster, key));
  }
  return attributeActors(report, (key) => byKey.get(key) ?? []);
}
