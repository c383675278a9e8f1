// Which mode handles each object (the decision act-on-shares.ts acts on): the
// first rule with a mode whose match fits the object's desired or live side,
// else the target's mode; each mode gets its own share of the report, so its
// issue or pull request follows only its own drift.
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../src/config/target-schema.ts";
import { buildReport, type Pairing } from "../../../src/drift/build-report.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import { modeShares, shareLines } from "../../../src/plan/mode-shares.ts";

const object = (kind: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind,
  metadata: { name, namespace: "shop", labels },
});

/** A pairing of desired and live; drifted unless `inSync`. */
function paired(desired: KubeObject, live: KubeObject, inSync = false): Pairing {
  const changes = inSync ? [] : [{ path: "/data/x", desired: "a", live: "b", manager: "kubectl-edit" }];
  return {
    desired: { object: desired, source: { file: "shop.yaml", document: 0 } },
    live,
    comparison: { changes, needsDryRun: false, needsDefaults: false, live, wouldBe: desired },
  };
}

function scanOf(rules: unknown[], pairings: Pairing[]) {
  const target = targetSchema.parse({ name: "shop", cluster: "prod", path: "shop", mode: "warn", rules });
  return { target, pairings, report: buildReport({ target: "shop", revision: "abc", pairings, problems: [] }) };
}

const names = (share: { scan: { report: { resources: Array<{ kind: string; name: string }> } } }) =>
  share.scan.report.resources.map((r) => `${r.kind}/${r.name}`);

describe("mode shares", () => {
  const rules = [
    { match: { kinds: ["Secret"] }, mode: "heal" },
    { match: { labels: { tier: "db" } }, mode: "codify" },
    { match: { names: ["nothing-like-it"] }, mode: "revert" },
  ];
  const scan = scanOf(rules, [
    paired(object("ConfigMap", "web"), object("ConfigMap", "web")),
    // Both the heal and the codify rule match it: the first one wins.
    paired(object("Secret", "db", { tier: "db" }), object("Secret", "db", { tier: "db" })),
    // The label is only on the live side: a rule matches either side.
    paired(object("ConfigMap", "cache"), object("ConfigMap", "cache", { tier: "db" })),
    paired(object("ConfigMap", "quiet"), object("ConfigMap", "quiet"), true),
    { live: object("Secret", "stray") },
  ]);
  const shares = modeShares(scan);

  it("gives each object the first matching rule's mode, else the target's, the target's share first", () => {
    expect(shares.map((s) => [s.mode, s.objects])).toEqual([
      ["warn", ["v1 ConfigMap shop/web"]],
      ["heal", ["v1 Secret shop/db", "v1 Secret shop/stray"]],
      ["codify", ["v1 ConfigMap shop/cache"]],
      // A mode with nothing to do still gets its share, so its pull request can close when its drift is gone.
      ["revert", []],
    ]);
  });

  it("cuts the report and pairings to each share, keeping in-sync objects in every share, each with its own fingerprint", () => {
    expect(shares.map(names)).toEqual([
      ["ConfigMap/web", "ConfigMap/quiet"],
      ["Secret/db", "ConfigMap/quiet", "Secret/stray"],
      ["ConfigMap/cache", "ConfigMap/quiet"],
      ["ConfigMap/quiet"],
    ]);
    expect(shares[1]!.scan.report.summary).toEqual({ inSync: 1, drifted: 1, missing: 0, orphaned: 1 });
    expect(shares[1]!.scan.pairings).toHaveLength(3);
    expect(new Set(shares.map((s) => s.scan.report.fingerprint)).size).toBe(4);
  });

  it("tells the check run which mode each object got, leaving out modes with no object", () => {
    expect(shareLines(scan.target, shares)).toEqual([
      "Per-object `rules` picked the mode of each object:",
      "",
      "- `warn`: `v1 ConfigMap shop/web`",
      "- `heal`: `v1 Secret shop/db`, `v1 Secret shop/stray`",
      "- `codify`: `v1 ConfigMap shop/cache`",
      "",
    ]);
  });

  it("hands the whole scan to the target's mode, and says nothing of rules, when no rule takes any drifted object", () => {
    const plain = scanOf(
      [{ match: { kinds: ["Secret"] }, mode: "heal" }],
      [paired(object("ConfigMap", "web"), object("ConfigMap", "web"))],
    );
    const [own, heal] = modeShares(plain);
    expect(own!.scan).toBe(plain);
    expect(heal!.objects).toEqual([]);
    expect(shareLines(plain.target, modeShares(plain))).toEqual([]);
  });
});
