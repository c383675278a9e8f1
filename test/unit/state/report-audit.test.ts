import { describe, expect, it } from "vitest";
import { reportAudit } from "../../../src/state/report-audit.ts";
import { sampleReport } from "../report/sample-report.ts";

describe("reportAudit", () => {
  it("names who in the cluster wrote each field, and who deleted a missing object, as the audit entry's writers", () => {
    const report = sampleReport();
    const configMap = report.resources.find((r) => r.kind === "ConfigMap")!;
    configMap.changes[0]!.actor = {
      username: "alice",
      groups: ["sre", "system:authenticated"],
      sourceIP: "10.1.2.3",
      at: "2026-11-30T10:00:00.412Z",
      confidence: "exact",
    };
    report.resources.find((r) => r.kind === "Service")!.deletedBy = {
      username: "system:serviceaccount:ci:deployer",
      groups: ["system:serviceaccounts", "system:serviceaccounts:ci"],
      serviceAccount: "ci:deployer",
      at: "2026-11-30T09:59:01.000Z",
      confidence: "exact",
    };
    expect(reportAudit(report).writers).toEqual([
      "ConfigMap/infra/app-config:/data/LOG_LEVEL by alice (sre) at 2026-11-30T10:00:00.412Z from 10.1.2.3",
      "Service/shop/web deleted by system:serviceaccount:ci:deployer at 2026-11-30T09:59:01.000Z",
    ]);
  });

  it("has no writers when the records named nobody", () => {
    expect(reportAudit(sampleReport()).writers).toEqual([]);
  });
});
