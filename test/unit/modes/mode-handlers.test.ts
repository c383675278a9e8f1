// The modes' pure plans, as act-on-shares.ts dispatches them (one handler per
// mode, each given its share and one context): warn files the tracking issue
// only when heal is not there to file it and there is a report for it; heal
// plans the issue's report with its share, and files it through warn's act.
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../src/config/target-schema.ts";
import { buildReport, type Pairing } from "../../../src/drift/build-report.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import type { ModeContext } from "../../../src/modes/mode-handler.ts";
import { modeHandlers } from "../../../src/modes/mode-handlers.ts";
import { modeShares } from "../../../src/plan/mode-shares.ts";
import type { ScanResult } from "../../../src/stages/scan/scan-target.ts";

const object = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop", labels },
});

function drifted(name: string, labels: Record<string, string> = {}): Pairing {
  const desired = object(name, labels);
  const live = object(name, labels);
  const changes = [{ path: "/data/x", desired: "a", live: "b", manager: "kubectl-edit" }];
  return {
    desired: { object: desired, source: { file: "shop.yaml", document: 0 } },
    live,
    comparison: { changes, needsDryRun: false, needsDefaults: false, live, wouldBe: desired },
  };
}

/** A scan of two drifted objects, `web` (labelled tier=web) and `db`, with the target's mode and rules. */
function scanOf(mode: string, rules: unknown[] = []): ScanResult {
  const target = targetSchema.parse({ name: "shop", cluster: "prod", path: "shop", mode, rules });
  const pairings = [drifted("web", { tier: "web" }), drifted("db")];
  const report = buildReport({ target: "shop", revision: "abc", pairings, problems: [] });
  // The plans read only the target, the report, the pairings and the renderer of a scan.
  return { target, pairings, report, renderer: "kustomize" } as unknown as ScanResult;
}

/** The context act-on-shares.ts builds, less what only the acts use. */
function contextOf(scan: ScanResult, issueReport = scan.report): ModeContext {
  const shares = modeShares(scan);
  return { scan, shares, target: scan.target, ...(issueReport ? { issueReport } : {}) } as unknown as ModeContext;
}

describe("the modes' handlers", () => {
  it("are one per mode the config allows", () => {
    expect(Object.keys(modeHandlers).sort()).toEqual(["codify", "heal", "revert", "warn"]);
  });

  it("warn plans the tracking issue's report, with the scan's renderer", () => {
    const scan = scanOf("warn");
    const context = contextOf(scan);
    const [share] = context.shares;
    expect(modeHandlers.warn.plan(share!, context)).toEqual({ report: scan.report, renderer: "kustomize" });
  });

  it("warn plans nothing when there is no report for the tracking issue", () => {
    const scan = scanOf("warn");
    const context = { ...contextOf(scan), issueReport: undefined };
    expect(modeHandlers.warn.plan(context.shares[0]!, context)).toBeUndefined();
  });

  it("warn plans nothing when heal has a share: heal files the issue, with the warn share beside its own", () => {
    const scan = scanOf("warn", [{ match: { labels: { tier: "web" } }, mode: "heal" }]);
    const context = contextOf(scan);
    expect(context.shares.map((s) => s.mode)).toEqual(["warn", "heal"]);
    const [warnShare, healShare] = context.shares;
    expect(modeHandlers.warn.plan(warnShare!, context)).toBeUndefined();
    expect(modeHandlers.heal.plan(healShare!, context)).toEqual({ scan: healShare!.scan, issueReport: scan.report });
  });

  it("heal's issue reports its own share when there is no joined report", () => {
    const scan = scanOf("heal");
    const context = { ...contextOf(scan), issueReport: undefined };
    const [share] = context.shares;
    expect(modeHandlers.heal.plan(share!, context)).toEqual({ scan: share!.scan, issueReport: share!.scan.report });
  });

  it("codify plans its share of the scan", () => {
    const scan = scanOf("warn", [{ match: { labels: { tier: "web" } }, mode: "codify" }]);
    const context = contextOf(scan);
    const share = context.shares.find((s) => s.mode === "codify")!;
    expect(share.objects).toEqual(["v1 ConfigMap shop/web"]);
    expect(modeHandlers.codify.plan(share, context)).toEqual({ scan: share.scan });
  });
});
