// The prune planner on random targets: whatever Git declares, whatever the cluster holds, whichever
// documents the render skipped, a prune never deletes what its guards protect.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../../src/config/target-schema.ts";
import type { SkippedDocument } from "../../../../src/desired/extract-objects.ts";
import { controllerOf, orphanPairings } from "../../../../src/drift/orphan-pairings.ts";
import { keyString, objectKey } from "../../../../src/model/object-key.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { declaredBy, type OtherTargets } from "../../../../src/plan/prune/other-targets.ts";
import { planPrune } from "../../../../src/plan/prune/plan-prune.ts";
import { planTargetPrune } from "../../../../src/plan/prune/plan-target-prune.ts";
import { isCustomResourceDefinition, isNamespace } from "../../../../src/plan/revert/apply-stage.ts";

const selector = "undrift.dev/target=shop";

const kinds = [
  { apiVersion: "v1", kind: "ConfigMap" },
  { apiVersion: "v1", kind: "Service" },
  { apiVersion: "v1", kind: "Endpoints" },
  { apiVersion: "v1", kind: "Pod" },
  { apiVersion: "apps/v1", kind: "Deployment" },
  { apiVersion: "apps/v1", kind: "ReplicaSet" },
  { apiVersion: "v1", kind: "Namespace" },
  { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" },
];

const anObject: fc.Arbitrary<KubeObject> = fc
  .record({
    kind: fc.constantFrom(...kinds),
    name: fc.constantFrom("a", "b", "c", "web", "shop"),
    namespace: fc.constantFrom("shop", "other"),
    label: fc.constantFrom<Record<string, string> | undefined>(
      { "undrift.dev/target": "shop" },
      { "undrift.dev/target": "other" },
      { app: "web" },
      undefined,
    ),
    optOut: fc.constantFrom<Record<string, string> | undefined>(
      undefined,
      undefined,
      { "undrift.dev/prune": "disabled" },
      { "kustomize.toolkit.fluxcd.io/prune": "disabled" },
      { "argocd.argoproj.io/sync-options": "Prune=false" },
    ),
    owner: fc.constantFrom<Array<Record<string, unknown>> | undefined>(
      undefined,
      [{ kind: "Deployment", name: "web", controller: true }],
      [{ kind: "Deployment", name: "web", controller: false }],
      [{ kind: "ConfigMap", name: "x" }],
    ),
  })
  .map(({ kind: { apiVersion, kind }, name, namespace, label, optOut, owner }) => {
    const clusterScoped = kind === "Namespace" || kind === "CustomResourceDefinition";
    return {
      apiVersion,
      kind,
      metadata: {
        name,
        ...(clusterScoped ? {} : { namespace }),
        ...(label ? { labels: label } : {}),
        ...(optOut ? { annotations: optOut } : {}),
        ...(owner ? { ownerReferences: owner } : {}),
      },
    } as KubeObject;
  });

const aSkippedDocument: fc.Arbitrary<SkippedDocument> = fc.record({
  file: fc.constantFrom("apps/values.yaml", "apps/web.yaml"),
  document: fc.nat(3),
  reason: fc.constant("not a Kubernetes object: no string apiVersion and kind"),
});

const aTarget = fc.record({
  desired: fc.array(anObject, { maxLength: 12 }),
  live: fc.array(anObject, { maxLength: 25 }),
  skippedDocuments: fc.oneof(fc.constant([]), fc.array(aSkippedDocument, { minLength: 1, maxLength: 3 })),
  requested: fc.boolean(),
  force: fc.boolean(),
  maxPrunePercent: fc.integer({ min: 0, max: 100 }),
  // What the repository's other targets declare (objects of the same random pool, so they overlap the live
  // ones), and whether one of them failed to render.
  otherTargets: fc
    .record({
      declared: fc.array(anObject, { maxLength: 6 }),
      unknown: fc.oneof(fc.constant([]), fc.constant([{ target: "web", reason: "kustomize build failed" }])),
    })
    .map(
      ({ declared, unknown }): OtherTargets => ({
        declared: new Map(declared.map((o) => [keyString(objectKey(o)), ["api"]])),
        unknown,
      }),
    ),
});

/** The target's orphans as the scan finds them, and as a caller that forgot the scan's filter would pass them. */
function orphansOf(desired: KubeObject[], live: KubeObject[]) {
  const tracked = new Map(live.map((o) => [keyString(objectKey(o)), o]));
  const declared = new Set(desired.map((o) => keyString(objectKey(o))));
  const scanned = orphanPairings({ tracked, declared }).map((p) => p.live!);
  const unfiltered = [...tracked.entries()].filter(([key]) => !declared.has(key)).map(([, o]) => o);
  return { scanned, unfiltered };
}

describe("the prune planner on random targets", () => {
  it("never deletes while a document was skipped, never an object a controller owns, never past maxPrunePercent", () => {
    fc.assert(
      fc.property(aTarget, (t) => {
        const { scanned, unfiltered } = orphansOf(t.desired, t.live);
        for (const orphans of [scanned, unfiltered]) {
          const plan = planPrune({ ...t, orphans, selector, rules: [] });
          const { deletions } = plan;
          if (t.skippedDocuments.length > 0 || !t.requested || t.desired.length === 0) expect(deletions).toEqual([]);
          if (t.otherTargets.unknown.length > 0) expect(deletions).toEqual([]);
          for (const o of deletions) {
            expect(declaredBy(t.otherTargets, o)).toEqual([]);
            expect(orphans).toContain(o);
            expect(controllerOf(o)).toBeUndefined();
            expect(o.metadata.labels?.["undrift.dev/target"]).toBe("shop");
            expect(o.metadata.annotations).toBeUndefined();
            if (!t.force) expect(isNamespace(o) || isCustomResourceDefinition(o)).toBe(false);
          }
          // The share counts the target's own objects: never a controller's, which its owner's deletion takes.
          const own = orphans.filter((o) => !controllerOf(o));
          if (!t.force)
            expect(deletions.length).toBeLessThanOrEqual(((t.desired.length + own.length) * t.maxPrunePercent) / 100);
          // Every orphan of the target's own is decided once: deleted or skipped with a guard.
          expect(deletions.length + plan.skipped.length).toBe(own.length);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("holds the same for a target's own prune setting, as heal and the preview decide", () => {
    fc.assert(
      fc.property(aTarget, fc.constantFrom<boolean | "preview">(true, false, "preview"), (t, prune) => {
        const target = targetSchema.parse({
          name: "shop",
          cluster: "c",
          path: "shop",
          prune,
          maxPrunePercent: t.maxPrunePercent,
        });
        const { unfiltered } = orphansOf(t.desired, t.live);
        const { deletions, skipped } = planTargetPrune({ ...t, orphans: unfiltered, target });
        if (t.skippedDocuments.length > 0 || prune !== true || t.desired.length === 0) expect(deletions).toEqual([]);
        if (t.otherTargets.unknown.length > 0) expect(deletions).toEqual([]);
        for (const o of deletions) {
          expect(declaredBy(t.otherTargets, o)).toEqual([]);
          expect(controllerOf(o)).toBeUndefined();
          expect(isNamespace(o) || isCustomResourceDefinition(o)).toBe(false);
        }
        const own = unfiltered.filter((o) => !controllerOf(o));
        expect(deletions.length).toBeLessThanOrEqual(((t.desired.length + own.length) * t.maxPrunePercent) / 100);
        expect(deletions.length + skipped.length).toBe(own.length);
      }),
      { numRuns: 2_000 },
    );
  });
});
