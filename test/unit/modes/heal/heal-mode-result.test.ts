// What heal's check run says and the scan audits, from what the apply, the
// fight count and prune returned: the reader learns which objects Git was
// applied to, which were not and why, which fields healing stopped for and
// where the rule that ends the fight is, and which orphans were deleted.
import { describe, expect, it } from "vitest";
import type { ObjectRecord } from "../../../../src/model/change-set.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { healModeResult } from "../../../../src/modes/heal/heal-mode-result.ts";
import type { FoughtObject, HealedObject } from "../../../../src/report/app/heal-sections.ts";

const deployment = (name: string): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, namespace: "shop" },
});
const orphan = (name: string, action: ObjectRecord["action"], more: Partial<ObjectRecord> = {}): ObjectRecord => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  namespace: "shop",
  name,
  action,
  ...more,
});

const healed: HealedObject[] = [
  { object: deployment("web"), action: "configured", fields: [{ path: "/spec/replicas", manager: "kubectl-scale" }] },
  { object: deployment("api"), action: "failed", reason: "admission webhook denied", fields: [] },
];
const fought: FoughtObject[] = [
  { object: deployment("worker"), fields: [{ path: "/spec/replicas", manager: "hpa-controller", heals: 3 }] },
];

describe("heal's mode result", () => {
  it("says which objects were healed and which were not, with the reason, and audits each with its fields and managers", () => {
    const result = healModeResult({ healed, fought: [], pruned: [] });
    expect(result.lines).toEqual([
      "Healed: Git was applied to 1 object(s): apps/v1 Deployment shop/web.",
      "Not healed: apps/v1 Deployment shop/api (admission webhook denied).",
    ]);
    expect(result.done).toEqual([
      {
        event: "heal",
        summary: "healed apps/v1 Deployment shop/web",
        objects: ["apps/v1 Deployment shop/web"],
        fields: ["Deployment/shop/web:/spec/replicas"],
        managers: ["kubectl-scale"],
      },
      {
        event: "heal-failed",
        summary: "could not heal apps/v1 Deployment shop/api",
        objects: ["apps/v1 Deployment shop/api"],
        fields: [],
        managers: [],
      },
    ]);
  });

  it("names a fought field, who changed it back, and the ignore pull request that ends the fight", () => {
    const ignore = {
      number: 7,
      url: "https://github.com/acme/gitops/pull/7",
      lines: [],
      outcome: "created",
      fields: ["f"],
      managers: ["hpa-controller"],
    };
    const result = healModeResult({ healed: [], fought, pruned: [], ignore });
    expect(result.lines).toEqual([
      "Healing stopped for `/spec/replicas` (changed back by `hpa-controller`) of apps/v1 Deployment shop/worker: a fight; pull request #7 adds the `ignoreDifferences` rule that ends it.",
    ]);
    expect(result.done.map((d) => [d.event, d.summary])).toEqual([
      ["heal-stopped", "stopped healing /spec/replicas of apps/v1 Deployment shop/worker"],
      ["ignore-pr-opened", "created pull request #7"],
    ]);
  });

  it("points to the tracking issue for the rule when no ignore pull request was written, and audits no PR", () => {
    const ignore = {
      lines: ["No ignore pull request: the config cannot be edited"],
      outcome: "refused",
      fields: [],
      managers: [],
    };
    const result = healModeResult({ healed: [], fought, pruned: [], ignore });
    expect(result.lines[0]).toMatch(/a fight; the tracking issue has the `ignoreDifferences` rule that ends it\.$/);
    expect(result.done.map((d) => d.event)).toEqual(["heal-stopped"]);
  });

  it("lists the orphans deleted (one still deleting) and those kept with why; only a guard or a failure is a refusal", () => {
    const pruned = [
      orphan("old", "deleted"),
      orphan("held", "deleting"),
      orphan("in-use", "skipped", { guard: "in-use", reason: "mounted by Pod shop/web-1" }),
      orphan("listed", "skipped", { guard: "not-requested", reason: "prune is preview" }),
    ];
    const result = healModeResult({ healed: [], fought: [], pruned });
    expect(result.lines).toEqual([
      "Pruned 2 orphan(s): v1 ConfigMap shop/old, v1 ConfigMap shop/held (still deleting).",
      "Not pruned: v1 ConfigMap shop/in-use (mounted by Pod shop/web-1); v1 ConfigMap shop/listed (prune is preview).",
    ]);
    expect(result.done.map((d) => [d.event, d.summary])).toEqual([
      ["prune", "pruned v1 ConfigMap shop/old"],
      ["prune", "pruned v1 ConfigMap shop/held (still deleting)"],
      ["prune-refused", "did not prune v1 ConfigMap shop/in-use"],
    ]);
  });

  it("says and audits nothing when heal had nothing to do", () => {
    expect(healModeResult({ healed: [], fought: [], pruned: [] })).toEqual({ done: [], lines: [] });
  });
});
