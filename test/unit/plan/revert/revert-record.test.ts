import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/config/config-error.ts";
import { fingerprint } from "../../../../src/drift/fingerprint.ts";
import {
  parseRevertRecord,
  renderRevertRecord,
  revertRecord,
  revertRecordPath,
} from "../../../../src/plan/revert/revert-record.ts";
import { sampleReport } from "../../report/sample-report.ts";

const file = revertRecordPath("infra");

describe("the revert record", () => {
  it("lives at one path per target under .undrift/", () => {
    expect(file).toBe(".undrift/revert/infra.yaml");
  });

  it("holds target, cluster, revision, fingerprint and every drifted, missing or orphaned object", () => {
    const report = sampleReport();
    const record = revertRecord({ report, cluster: "prod-eu" });
    expect(record).toMatchObject({
      target: "infra",
      cluster: "prod-eu",
      revision: report.revision,
      fingerprint: report.fingerprint,
    });
    expect(record.objects.map((o) => `${o.status} ${o.kind} ${o.namespace ?? ""}/${o.name}`)).toEqual([
      "drifted Deployment shop/web",
      "drifted ConfigMap infra/app-config",
      "drifted Secret shop/db",
      "missing Service shop/web",
      "orphaned ClusterRole /legacy-reader",
    ]);
    expect(record.objects[0]?.fingerprint).toBe(fingerprint([report.resources[0]!]));
    expect(record.objects[0]?.changes[0]).toEqual({
      path: "/spec/replicas",
      desired: 3,
      live: 5,
      manager: "kubectl-scale",
      changedAt: "2026-11-30T09:00:00Z",
    });
  });

  it("never carries a Secret value, even from a report that was not masked", () => {
    const report = sampleReport();
    const secret = report.resources.find((r) => r.kind === "Secret")!;
    secret.changes = [{ path: "/data/password", desired: "aHVudGVyMg==", live: "c3dvcmRmaXNo" }];
    const text = renderRevertRecord(revertRecord({ report, cluster: "prod-eu" }));
    expect(text).not.toContain("aHVudGVyMg==");
    expect(text).not.toContain("c3dvcmRmaXNo");
    expect(text).toContain("*** (after)");
  });

  it("reads back exactly what it wrote, so the merge handler sees what was approved", () => {
    const record = revertRecord({ report: sampleReport(), cluster: "prod-eu" });
    const text = renderRevertRecord(record);
    expect(text.startsWith("# Written by undrift for a revert pull request.")).toBe(true);
    expect(parseRevertRecord({ text, file })).toEqual(record);
  });

  it("renders the same text for the same drift, so an unchanged PR needs no new commit", () => {
    const a = renderRevertRecord(revertRecord({ report: sampleReport(), cluster: "prod-eu" }));
    const b = renderRevertRecord(revertRecord({ report: sampleReport(), cluster: "prod-eu" }));
    expect(a).toBe(b);
  });

  it("names the file, line and field of a record someone broke by hand", () => {
    const text = renderRevertRecord(revertRecord({ report: sampleReport(), cluster: "prod-eu" })).replace(
      "status: missing",
      "status: gone",
    );
    const error = (() => {
      try {
        parseRevertRecord({ text, file });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^\.undrift\/revert\/infra\.yaml:\d+: objects\[3\]\.status: /);
  });
});
