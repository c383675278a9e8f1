import { describe, expect, it } from "vitest";
import type { ObjectRule } from "../../../../src/config/schema.ts";
import { targetSchema } from "../../../../src/config/target-schema.ts";
import type { SkippedDocument } from "../../../../src/desired/extract-objects.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { noOtherTargets, type OtherTargets } from "../../../../src/plan/prune/other-targets.ts";
import { planPrune } from "../../../../src/plan/prune/plan-prune.ts";
import { planTargetPrune } from "../../../../src/plan/prune/plan-target-prune.ts";
import { pruneOptOut } from "../../../../src/plan/prune/prune-opt-out.ts";

const selector = "undrift.dev/target=shop";
const tracked = { "undrift.dev/target": "shop" };

function object(kind: string, name: string, meta: Partial<KubeObject["metadata"]> = {}, extra = {}): KubeObject {
  const apiVersion =
    kind === "CustomResourceDefinition" ? "apiextensions.k8s.io/v1" : kind === "Deployment" ? "apps/v1" : "v1";
  const clusterScoped = kind === "Namespace" || kind === "CustomResourceDefinition";
  return {
    apiVersion,
    kind,
    metadata: { name, ...(clusterScoped ? {} : { namespace: "shop" }), labels: { ...tracked }, ...meta },
    ...extra,
  };
}

const desired = Array.from({ length: 9 }, (_, i) => object("ConfigMap", `kept-${i}`));

function plan(
  orphans: KubeObject[],
  options: {
    force?: boolean;
    requested?: boolean;
    rules?: ObjectRule[];
    desired?: KubeObject[];
    skippedDocuments?: SkippedDocument[];
    otherTargets?: OtherTargets;
  } = {},
) {
  return planPrune({
    orphans,
    desired: options.desired ?? desired,
    selector,
    requested: options.requested ?? true,
    force: options.force ?? false,
    maxPrunePercent: 30,
    rules: options.rules ?? [],
    skippedDocuments: options.skippedDocuments ?? [],
    otherTargets: options.otherTargets ?? noOtherTargets,
  });
}

const guards = (p: ReturnType<typeof plan>) => p.skipped.map((s) => [s.name, s.guard]);

describe("which orphans a prune deletes", () => {
  it("deletes tracked orphans, namespaced objects before Namespaces and CRDs", () => {
    const orphans = [
      object("Namespace", "old-ns"),
      object("ConfigMap", "old"),
      object(
        "CustomResourceDefinition",
        "gadgets.example.com",
        {},
        { spec: { group: "example.com", names: { kind: "Gadget" } } },
      ),
    ];
    const p = plan(orphans, { force: true });
    expect(p.deletions.map((o) => o.metadata.name)).toEqual(["old", "old-ns", "gadgets.example.com"]);
    expect(p.skipped).toEqual([]);
  });

  it("lists every orphan as skipped when prune was not asked for", () => {
    const p = plan([object("ConfigMap", "old")], { requested: false });
    expect(p.deletions).toEqual([]);
    expect(p.skipped).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "shop",
        name: "old",
        action: "skipped",
        guard: "not-requested",
        reason: "prune not requested",
      },
    ]);
  });

  it("never deletes an object without the tracking label, even if something listed it", () => {
    const p = plan([object("ConfigMap", "foreign", { labels: { "undrift.dev/target": "other" } })]);
    expect(guards(p)).toEqual([["foreign", "untracked"]]);
    expect(p.skipped[0]?.reason).toBe("it does not carry the tracking label (undrift.dev/target=shop)");
  });

  it("honours undrift's, Flux's and Argo CD's opt-outs, on annotations and labels", () => {
    const orphans = [
      object("ConfigMap", "a", { annotations: { "undrift.dev/prune": "disabled" } }),
      object("ConfigMap", "b", { labels: { ...tracked, "kustomize.toolkit.fluxcd.io/prune": "disabled" } }),
      object("ConfigMap", "c", {
        annotations: { "argocd.argoproj.io/sync-options": "ServerSideApply=true, Prune=false" },
      }),
    ];
    const p = plan(orphans, { force: true });
    expect(p.deletions).toEqual([]);
    expect(p.skipped.map((s) => s.reason)).toEqual([
      "opted out by annotation undrift.dev/prune: disabled",
      "opted out by label kustomize.toolkit.fluxcd.io/prune: disabled",
      "opted out by annotation argocd.argoproj.io/sync-options: Prune=false",
    ]);
  });

  it("honours a rule of the target that sets prune false or preview for the object", () => {
    const rules: ObjectRule[] = [
      { match: { kinds: ["Secret"] }, mode: "warn" },
      { match: { kinds: ["ConfigMap"], names: ["audit"] }, prune: "preview" },
    ];
    const p = plan([object("ConfigMap", "audit"), object("ConfigMap", "old")], { rules, force: true });
    expect(p.deletions.map((o) => o.metadata.name)).toEqual(["old"]);
    expect(p.skipped[0]?.reason).toBe("opted out by rules[1] of the target (prune: preview)");
  });

  it("refuses everything when the render is empty, even with --force-prune", () => {
    const p = plan([object("ConfigMap", "a"), object("ConfigMap", "b")], { desired: [], force: true });
    expect(p.deletions).toEqual([]);
    expect(guards(p)).toEqual([
      ["a", "empty-render"],
      ["b", "empty-render"],
    ]);
  });

  it("refuses more than maxPrunePercent of the tracked objects without --force-prune", () => {
    const orphans = [
      object("ConfigMap", "a"),
      object("ConfigMap", "b"),
      object("ConfigMap", "c"),
      object("ConfigMap", "d"),
      object("ConfigMap", "e"),
    ];
    const p = plan(orphans);
    expect(p.deletions).toEqual([]);
    expect(p.skipped[0]?.reason).toBe(
      "pruning 5 of 14 tracked objects (36%) is more than maxPrunePercent 30%; --force-prune prunes them anyway",
    );
    expect(plan(orphans, { force: true }).deletions).toHaveLength(5);
  });

  it("allows a prune of exactly maxPrunePercent", () => {
    const orphans = [object("ConfigMap", "a"), object("ConfigMap", "b"), object("ConfigMap", "c")];
    expect(plan(orphans, { desired: desired.slice(0, 7) }).deletions).toHaveLength(3); // 3 of 10
    expect(plan([...orphans, object("ConfigMap", "d")], { desired: desired.slice(0, 6) }).deletions).toEqual([]); // 4 of 10
  });

  it("prunes a Namespace or a CRD only with --force-prune", () => {
    const namespace = object("Namespace", "old-ns");
    expect(guards(plan([namespace]))).toEqual([["old-ns", "kind"]]);
    expect(plan([namespace]).skipped[0]?.reason).toBe(
      "a Namespace is pruned only with --force-prune: deleting it deletes everything in it",
    );
    expect(plan([namespace], { force: true }).deletions).toEqual([namespace]);
  });

  it("never prunes a Namespace the target's objects live in, or a CRD of its custom resources", () => {
    const crd = object(
      "CustomResourceDefinition",
      "widgets.example.com",
      {},
      { spec: { group: "example.com", names: { kind: "Widget" } } },
    );
    const widget: KubeObject = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", namespace: "shop" },
    };
    const p = plan([object("Namespace", "shop"), crd], { force: true, desired: [...desired, widget] });
    expect(guards(p)).toEqual([
      ["shop", "in-use"],
      ["widgets.example.com", "in-use"],
    ]);
  });

  it("refuses a selector that names no label the objects carry", () => {
    const p = planPrune({
      orphans: [object("ConfigMap", "a")],
      desired,
      selector: "!team",
      requested: true,
      force: true,
      maxPrunePercent: 100,
      rules: [],
      skippedDocuments: [],
      otherTargets: noOtherTargets,
    });
    expect(guards(p)).toEqual([["a", "selector"]]);
  });

  it("prunes nothing while the render skipped a document, even with --force-prune, naming the first one", () => {
    const skippedDocuments = [
      { file: "apps/shop/web.yaml", document: 1, reason: "Deployment has no metadata.name" },
      { file: "apps/shop/old.yaml", document: 0, reason: "not a Kubernetes object: no string apiVersion and kind" },
    ];
    const p = plan([object("ConfigMap", "web-config"), object("Namespace", "old-ns")], {
      force: true,
      skippedDocuments,
    });
    expect(p.deletions).toEqual([]);
    expect(guards(p)).toEqual([
      ["web-config", "skipped-documents"],
      ["old-ns", "skipped-documents"],
    ]);
    expect(p.skipped[0]?.reason).toBe(
      "the render skipped apps/shop/web.yaml document 2 and 1 more document (Deployment has no metadata.name); " +
        "a target with a skipped document never prunes, as the object it should declare would look like an orphan",
    );
  });

  it("names the file and line of a skipped document when the render knows the line", () => {
    const skippedDocuments = [{ file: "apps/shop/web.yaml", document: 1, line: 12, reason: "no metadata.name" }];
    const p = plan([object("ConfigMap", "web-config")], { skippedDocuments });
    expect(p.skipped[0]?.reason).toMatch(/^the render skipped apps\/shop\/web.yaml:12 \(no metadata.name\); /);
  });
});

describe("prune opt-outs", () => {
  it("reads Argo CD's Prune=confirm as an opt-out, since undrift has no confirmation step", () => {
    expect(
      pruneOptOut(object("ConfigMap", "a", { annotations: { "argocd.argoproj.io/sync-options": "Prune=confirm" } })),
    ).toBe("annotation argocd.argoproj.io/sync-options: Prune=confirm");
  });

  it("honours an opt-out whatever its letter case, on labels and annotations, as Flux does", () => {
    const cases: [Partial<KubeObject["metadata"]>, string][] = [
      [{ annotations: { "undrift.dev/prune": "Disabled" } }, "annotation undrift.dev/prune: Disabled"],
      [{ labels: { ...tracked, "undrift.dev/prune": "DISABLED" } }, "label undrift.dev/prune: DISABLED"],
      [
        { annotations: { "kustomize.toolkit.fluxcd.io/prune": "Disabled" } },
        "annotation kustomize.toolkit.fluxcd.io/prune: Disabled",
      ],
      [
        { labels: { ...tracked, "kustomize.toolkit.fluxcd.io/prune": "disAbled" } },
        "label kustomize.toolkit.fluxcd.io/prune: disAbled",
      ],
      [
        { annotations: { "argocd.argoproj.io/sync-options": "ServerSideApply=true, prune=False" } },
        "annotation argocd.argoproj.io/sync-options: prune=False",
      ],
      [
        { labels: { ...tracked, "argocd.argoproj.io/sync-options": "PRUNE=CONFIRM" } },
        "label argocd.argoproj.io/sync-options: PRUNE=CONFIRM",
      ],
    ];
    for (const [meta, says] of cases) {
      const orphan = object("ConfigMap", "a", meta);
      expect(pruneOptOut(orphan)).toBe(says);
      const p = plan([orphan]);
      expect(p.deletions).toEqual([]);
      expect(p.skipped[0]).toMatchObject({ guard: "opted-out", reason: `opted out by ${says}` });
    }
  });

  it("keeps what Flux neither applies nor collects, and what Argo CD keeps when its Application goes", () => {
    const cases: [Partial<KubeObject["metadata"]>, string][] = [
      [
        { annotations: { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" } },
        "annotation kustomize.toolkit.fluxcd.io/reconcile: disabled",
      ],
      [
        { labels: { ...tracked, "kustomize.toolkit.fluxcd.io/ssa": "ignore" } },
        "label kustomize.toolkit.fluxcd.io/ssa: ignore",
      ],
      [
        { annotations: { "argocd.argoproj.io/sync-options": "ServerSideApply=true,Delete=false" } },
        "annotation argocd.argoproj.io/sync-options: Delete=false",
      ],
      [
        { annotations: { "argocd.argoproj.io/sync-options": "Delete=confirm" } },
        "annotation argocd.argoproj.io/sync-options: Delete=confirm",
      ],
    ];
    for (const [meta, says] of cases) {
      const p = plan([object("ConfigMap", "a", meta)]);
      expect(p.deletions).toEqual([]);
      expect(p.skipped[0]).toMatchObject({ guard: "opted-out", reason: `opted out by ${says}` });
    }
    // Flux's other apply policies say nothing about pruning.
    expect(
      pruneOptOut(object("ConfigMap", "a", { annotations: { "kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent" } })),
    ).toBeUndefined();
  });

  it("does not read other values as opt-outs", () => {
    expect(
      pruneOptOut(
        object("ConfigMap", "a", {
          annotations: { "undrift.dev/prune": "enabled", "argocd.argoproj.io/sync-options": "Prune=true" },
        }),
      ),
    ).toBeUndefined();
  });
});

describe("a target's own prune (heal, a merged revert pull request, a preview)", () => {
  it("refuses every orphan its prune would delete while the render skipped a document", () => {
    const target = targetSchema.parse({ name: "shop", cluster: "prod-eu", path: "apps/shop", prune: true });
    const skippedDocuments = [{ file: "apps/shop/notes.yaml", document: 0, reason: "not a Kubernetes object" }];
    const otherTargets = noOtherTargets;
    const p = planTargetPrune({
      orphans: [object("ConfigMap", "old")],
      desired,
      target,
      skippedDocuments,
      otherTargets,
    });
    expect(p.deletions).toEqual([]);
    expect(p.skipped.map((s) => [s.name, s.guard])).toEqual([["old", "skipped-documents"]]);
    expect(p.skipped[0]?.reason).toMatch(
      /^the render skipped apps\/shop\/notes.yaml document 1 \(not a Kubernetes object\); /,
    );
    expect(
      planTargetPrune({ orphans: [object("ConfigMap", "old")], desired, target, skippedDocuments: [], otherTargets })
        .deletions,
    ).toHaveLength(1);
  });
});

describe("objects another target of the repository declares", () => {
  // Target "api" declares ConfigMap shop/api-config; "shop"'s selector matches it too (overlapping selectors).
  const others: OtherTargets = { declared: new Map([["/ConfigMap/shop/api-config", ["api"]]]), unknown: [] };

  it("keeps an orphan another target declares, naming that target, even with --force-prune", () => {
    const orphans = [object("ConfigMap", "api-config"), object("ConfigMap", "old")];
    for (const force of [false, true]) {
      const p = plan(orphans, { otherTargets: others, force });
      expect(p.deletions.map((o) => o.metadata.name)).toEqual(["old"]);
      expect(p.skipped).toEqual([
        expect.objectContaining({ name: "api-config", guard: "declared-elsewhere", reason: "target api declares it" }),
      ]);
    }
  });

  it("names every target that declares it", () => {
    const both: OtherTargets = { declared: new Map([["/ConfigMap/shop/api-config", ["api", "web"]]]), unknown: [] };
    const p = plan([object("ConfigMap", "api-config")], { otherTargets: both });
    expect(p.skipped[0]?.reason).toBe("targets api, web declare it");
  });

  it("does not count another target's objects in maxPrunePercent's share", () => {
    // 2 own orphans of 9 desired + 2 is 18%; with 10 objects of another target counted it would pass as 10%,
    // and at 15% the prune must be refused.
    const theirs = Array.from({ length: 10 }, (_, i) => object("ConfigMap", `api-${i}`));
    const declared = new Map(theirs.map((o) => [`/ConfigMap/shop/${o.metadata.name}`, ["api"]]));
    const orphans = [...theirs, object("ConfigMap", "old-1"), object("ConfigMap", "old-2")];
    const p = planPrune({
      orphans,
      desired,
      selector,
      requested: true,
      force: false,
      maxPrunePercent: 15,
      rules: [],
      skippedDocuments: [],
      otherTargets: { declared, unknown: [] },
    });
    expect(p.deletions).toEqual([]);
    expect(p.skipped.filter((s) => s.guard === "max-percent").map((s) => s.name)).toEqual(["old-1", "old-2"]);
  });

  it("prunes nothing while another target's objects are unknown, and says which target", () => {
    const unknown: OtherTargets = {
      declared: new Map(),
      unknown: [{ target: "web", reason: "web/kustomization.yaml: kustomize build failed" }],
    };
    const p = plan([object("ConfigMap", "old"), object("ConfigMap", "mine", { annotations: {} }, {})], {
      otherTargets: unknown,
    });
    expect(p.deletions).toEqual([]);
    expect(guards(p)).toEqual([
      ["old", "others-unknown"],
      ["mine", "others-unknown"],
    ]);
    expect(p.skipped[0]?.reason).toBe(
      "target web could not be rendered (web/kustomization.yaml: kustomize build failed), so whether it declares this object is unknown; nothing is pruned until it renders",
    );
    // An orphan held by a guard of its own keeps that guard's reason.
    const optedOut = plan([object("ConfigMap", "kept", { annotations: { "undrift.dev/prune": "disabled" } })], {
      otherTargets: unknown,
    });
    expect(guards(optedOut)).toEqual([["kept", "opted-out"]]);
  });

  it("holds for a target's own prune, as heal, a merged revert and the preview decide", () => {
    const target = targetSchema.parse({ name: "shop", cluster: "prod-eu", path: "apps/shop", prune: true });
    const orphans = [object("ConfigMap", "api-config"), object("ConfigMap", "old")];
    const p = planTargetPrune({ orphans, desired, target, skippedDocuments: [], otherTargets: others });
    expect(p.deletions.map((o) => o.metadata.name)).toEqual(["old"]);
    expect(guards(p)).toEqual([["api-config", "declared-elsewhere"]]);
  });
});

describe("an orphan already being deleted", () => {
  it("is not deleted again: reported deleting, with what holds it, and not counted in the share", () => {
    const held = object("ConfigMap", "held", {
      deletionTimestamp: "2026-12-06T05:00:00Z",
      finalizers: ["example.com/hold"],
    });
    // 1 deletable orphan of 9 desired + 1 is 10%, within maxPrunePercent 10; were the held one a candidate too,
    // 2 of 11 (18%) would be refused.
    const p = planPrune({
      orphans: [held, object("ConfigMap", "old")],
      desired,
      selector,
      requested: true,
      force: false,
      maxPrunePercent: 10,
      rules: [],
      skippedDocuments: [],
      otherTargets: noOtherTargets,
    });
    expect(p.deletions.map((o) => o.metadata.name)).toEqual(["old"]);
    expect(p.skipped).toEqual([]);
    expect(p.deleting).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "shop",
        name: "held",
        action: "deleting",
        reason:
          "already being deleted since 2026-12-06T05:00:00Z, not deleted again: finalizer example.com/hold holds it until its controller removes it",
      },
    ]);
  });
});
