import { describe, expect, it } from "vitest";
import { revertRecord, revertRecordPath } from "../../../../src/plan/revert/revert-record.ts";
import { revertPrBody } from "../../../../src/report/app/revert-pr-body.ts";
import { sampleReport } from "../sample-report.ts";

const file = revertRecordPath("infra");

describe("the revert pull request's body", () => {
  it("says, per object, the fields ignoreDifferences keeps live, as revert --dry-run says them", () => {
    const report = sampleReport();
    const record = revertRecord({ report, cluster: "prod-eu" });
    const kept = new Map([["/ConfigMap/infra/app-config", ["/data/REGION", "/data/ZONE"]]]);
    const lines = revertPrBody({ report, record, file, kept }).split("\n");
    expect(lines.filter((l) => l.includes("kept live"))).toEqual([
      "- `v1 ConfigMap infra/app-config` (drifted, re-apply Git's fields): `/data/LOG_LEVEL`; kept live /data/REGION, /data/ZONE (ignoreDifferences)",
    ]);
  });

  it("says nothing is kept when nothing is", () => {
    const report = sampleReport();
    const body = revertPrBody({ report, record: revertRecord({ report, cluster: "prod-eu" }), file });
    expect(body).toContain("**What merging will do**");
    expect(body).not.toContain("kept live");
  });
});
