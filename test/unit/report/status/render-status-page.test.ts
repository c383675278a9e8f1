// The status page's HTML: what a record holds is shown as text, never as markup,
// a stored link that is not http(s) is dropped, and nothing of a report's values
// (the Secret's masked data included) gets as far as the summary the page is drawn from.
import { describe, expect, it } from "vitest";
import type { DriftReport } from "../../../../src/model/types.ts";
import { renderStatusPage } from "../../../../src/report/status/render-status-page.ts";
import { statusSummary } from "../../../../src/report/status/status-summary.ts";
import { sampleReport } from "../sample-report.ts";

const scannedAt = new Date("2026-12-01T08:00:00Z");

function page(report: DriftReport, links = {}) {
  const status = statusSummary({ repo: "acme/gitops", cluster: "prod", report, scannedAt, links });
  return renderStatusPage({
    login: "mona",
    account: "acme",
    rows: [{ status, points: [] }],
    githubWeb: "https://github.com",
  });
}

describe("the status page's HTML", () => {
  it("keeps no value of the report, only names, paths, managers and times", () => {
    const summary = JSON.stringify(
      statusSummary({ repo: "acme/gitops", cluster: "prod", report: sampleReport(), scannedAt }),
    );
    for (const value of ["debug", "info", "*** (before)", "*** (after)", "eu-west-1", "ghcr.io"])
      expect(summary).not.toContain(value);
    expect(summary).toContain("/spec/replicas");
    expect(summary).toContain("kubectl-scale");
    expect(summary).toContain("2026-11-30T09:00:00Z");
  });

  it("names the person behind a drifted field and the one who deleted a missing object, when the cluster recorded them", () => {
    const report = sampleReport();
    const at = "2026-11-30T09:00:00Z";
    const secret = report.resources.find((r) => r.kind === "Secret")!;
    secret.changes[0]!.actor = {
      username: "alice",
      groups: ["sre", "system:authenticated"],
      at,
      sourceIP: "10.1.2.3",
      confidence: "exact",
    };
    const service = report.resources.find((r) => r.kind === "Service")!;
    service.deletedBy = { username: "bob", groups: ["dev"], at, confidence: "exact" };
    const html = page(report);
    expect(html).toContain(
      '<code>/data/password</code> changed by <span class="person">alice (sre)</span> with <span class="manager">kubectl-edit</span>',
    );
    expect(html).toContain(
      '<span class="object-name">Service shop/web</span> <span class="status">missing</span> deleted by <span class="person">bob (dev)</span>',
    );
    // Still no value of the Secret, and no address: the page names people, not where they were.
    expect(html).not.toContain("*** (before)");
    expect(html).not.toContain("10.1.2.3");
  });

  it("shows a name that looks like markup as text", () => {
    const report = sampleReport();
    report.target = '<img src=x onerror="alert(1)">';
    const first = report.resources[0]!;
    first.name = "</td><script>alert(1)</script>";
    first.changes[0]!.manager = '"><b>me</b>';
    const html = page(report);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>me</b>");
    expect(html).toContain("&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;b&gt;me&lt;/b&gt;");
  });

  it("links a stored issue only when it is an http(s) URL", () => {
    expect(page(sampleReport(), { issue: "https://github.com/acme/gitops/issues/3" })).toContain(
      'href="https://github.com/acme/gitops/issues/3"',
    );
    expect(page(sampleReport(), { issue: "javascript:alert(1)" })).not.toContain("javascript:");
  });

  it("carries the chart's data where no script tag can be closed early", () => {
    const report = sampleReport();
    report.target = "</script><script>alert(1)</script>";
    const html = page(report);
    const data = /<script type="application\/json" id="chart-data">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(data).not.toContain("<");
    expect(JSON.parse(data).series[0].label).toBe("acme/gitops </script><script>alert(1)</script>");
  });
});
