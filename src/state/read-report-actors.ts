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
  // All at once: one connection carries them back to back, so a wide drift costs about one round trip, not one each.
  const read = await Promise.all(
    wanted.map(async (resource): Promise<[string, WriteRecord[]]> => {
      const key = resourceKey(resource);
      return [keyString(key), await records.forObject(cluster, key)];
    }),
  );
  const byKey = new Map(read);
  return attributeActors(report, (key) => byKey.get(key) ?? []);
}
