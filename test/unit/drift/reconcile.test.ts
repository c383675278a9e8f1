// The engine's pure pass: local comparisons, then the findings from them and the
// dry-runs' new comparisons, desired objects in order and then the orphans.
import { describe, expect, it } from "vitest";
import { findingOf } from "../../../src/drift/build-report.ts";
import { compareLocally, needsConfirmation, reconcile } from "../../../src/drift/reconcile.ts";
import { declaredKeyString, keyString, objectKey } from "../../../src/model/object-key.ts";
import type { DesiredObject, KubeObject } from "../../../src/model/types.ts";
import { compare, configMapInSync, dataOf, fixtureCase, policyFor } from "./drift-fixtures.ts";

const desiredOf = (object: KubeObject, document = 0): DesiredObject => ({
  object,
  source: { file: "apps/shop/objects.yaml", document },
});

const configMap = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop", labels },
  data: { a: "b" },
});

describe("reconcile", () => {
  it("pairs each desired object with its live one in the config's order: in sync, drifted, missing", async () => {
    const policy = await policyFor();
    const inSync = configMapInSync();
    const drifted = configMapInSync();
    drifted.desired.metadata.name = drifted.live.metadata.name = "other";
    const [field] = Object.keys(dataOf(drifted.live));
    dataOf(drifted.live)[field!] = "changed by hand";
    const absent = configMap("absent");
    const desired = [desiredOf(drifted.desired, 0), desiredOf(absent, 1), desiredOf(inSync.desired, 2)];
    const live = {
      byDesired: new Map([
        [declaredKeyString(drifted.desired), drifted.live],
        [declaredKeyString(inSync.desired), inSync.live],
      ]),
      unknown: new Set<string>(),
    };
    const comparisons = compareLocally({ desired, live, policy });
    expect([...comparisons.keys()]).toEqual([declaredKeyString(drifted.desired), declaredKeyString(inSync.desired)]);

    const pairings = reconcile({ desired, live, comparisons, tracked: new Map() });
    expect(pairings.map((p) => [p.desired?.object.metadata.name, findingOf(p)])).toEqual([
      ["other", "drifted"],
      ["absent", "missing"],
      [inSync.desired.metadata.name, "in-sync"],
    ]);
  });

  it("leaves out what could not be read, and takes the dry-run's comparison and refusal over the local one", async () => {
    const policy = await policyFor();
    const scaled = fixtureCase("deployment-hand-edited");
    const unread = configMap("unread");
    const desired = [desiredOf(scaled.desired), desiredOf(unread, 1)];
    const live = {
      byDesired: new Map([[declaredKeyString(scaled.desired), scaled.live]]),
      unknown: new Set([declaredKeyString(unread)]),
    };
    const local = compareLocally({ desired, live, policy });
    const key = declaredKeyString(scaled.desired);
    // What the server's dry-run would settle: here, that applying Git changes nothing.
    const confirmed = await compare({ desired: scaled.desired, live: scaled.live, wouldBe: scaled.live });
    const pairings = reconcile({
      desired,
      live,
      comparisons: new Map([...local, [key, confirmed]]),
      refusals: new Map([[key, "spec.replicas: Invalid value"]]),
      tracked: new Map(),
    });
    expect(pairings).toHaveLength(1);
    expect(pairings[0]!.comparison).toBe(confirmed);
    expect(pairings[0]!.refused).toBe("spec.replicas: Invalid value");
    // The local comparison is left as it was: reconcile builds new pairings, it edits nothing it is given.
    expect(local.get(key)).not.toBe(confirmed);
  });

  it("adds the tracked objects Git does not declare as orphans, never one a controller owns", async () => {
    const policy = await policyFor();
    const kept = configMap("kept", { app: "shop" });
    const orphan = configMap("orphan", { app: "shop" });
    const owned = {
      ...configMap("owned", { app: "shop" }),
      metadata: {
        name: "owned",
        namespace: "shop",
        ownerReferences: [{ apiVersion: "v1", kind: "Thing", name: "x", uid: "1", controller: true }],
      },
    };
    const desired = [desiredOf(kept)];
    const live = { byDesired: new Map([[declaredKeyString(kept), kept]]), unknown: new Set<string>() };
    const tracked = new Map([kept, orphan, owned].map((o) => [keyString(objectKey(o)), o]));
    const pairings = reconcile({ desired, live, comparisons: compareLocally({ desired, live, policy }), tracked });
    expect(pairings.map((p) => [(p.desired?.object ?? p.live)!.metadata.name, findingOf(p)])).toEqual([
      ["kept", "in-sync"],
      ["orphan", "orphaned"],
    ]);
  });

  it("says which local comparisons only the server can settle", async () => {
    expect(needsConfirmation(await compare(configMapInSync()))).toBe(false);
    expect(needsConfirmation(await compare(fixtureCase("deployment-hand-edited")))).toBe(true);
  });

  it("refuses a live object given without its comparison: compareLocally was skipped", async () => {
    const kept = configMap("kept");
    const live = { byDesired: new Map([[declaredKeyString(kept), kept]]), unknown: new Set<string>() };
    expect(() => reconcile({ desired: [desiredOf(kept)], live, comparisons: new Map(), tracked: new Map() })).toThrow(
      /no comparison for v1\|\/ConfigMap\/shop\/kept/,
    );
  });
});

describe("reconcile, with the reconcilers' per-object annotations", () => {
  const single = (desired: KubeObject, live: KubeObject | undefined) => ({
    desired: [desiredOf(desired)],
    live: {
      byDesired: new Map(live ? [[declaredKeyString(desired), live]] : []),
      unknown: new Set<string>(),
    },
  });

  /** A ConfigMap changed by hand, with `meta` on the side `on` names. */
  function handEdited(on: "desired" | "live" | "both", meta: Partial<KubeObject["metadata"]>) {
    const pair = configMapInSync();
    const [field] = Object.keys(dataOf(pair.live));
    dataOf(pair.live)[field!] = "changed by hand";
    for (const side of on === "both" ? (["desired", "live"] as const) : [on]) {
      const object = pair[side];
      object.metadata.labels = { ...object.metadata.labels, ...meta.labels };
      object.metadata.annotations = { ...object.metadata.annotations, ...meta.annotations };
    }
    return pair;
  }

  async function findings(desired: KubeObject, live: KubeObject | undefined) {
    const input = single(desired, live);
    const comparisons = compareLocally({ ...input, policy: await policyFor() });
    const pairings = reconcile({ ...input, comparisons, tracked: new Map() });
    return pairings.map((p) => ({ status: findingOf(p), leftAlone: p.leftAlone, comparison: p.comparison }));
  }

  it("finds an object Flux does not reconcile in sync, whichever side says so, with no dry-run to send", async () => {
    const cases: Array<["desired" | "live" | "both", "label" | "annotation", string, string]> = [
      ["live", "annotation", "kustomize.toolkit.fluxcd.io/reconcile", "disabled"],
      ["desired", "label", "kustomize.toolkit.fluxcd.io/reconcile", "Disabled"],
      ["live", "label", "kustomize.toolkit.fluxcd.io/ssa", "Ignore"],
      ["both", "annotation", "helm.toolkit.fluxcd.io/driftDetection", "disabled"],
    ];
    for (const [on, where, key, value] of cases) {
      const pair = handEdited(on, where === "label" ? { labels: { [key]: value } } : { annotations: { [key]: value } });
      const [found] = await findings(pair.desired, pair.live);
      expect(found?.status).toBe("in-sync");
      expect(found?.leftAlone).toBe(`${where} ${key}: ${value}`);
      expect(needsConfirmation(found!.comparison!)).toBe(false);
    }
    // Without the annotation, the same edit is drift.
    const plain = handEdited("both", {});
    expect((await findings(plain.desired, plain.live))[0]?.status).toBe("drifted");
  });

  it("does not count an object as missing when Git tells Flux to leave it alone", async () => {
    const pair = handEdited("desired", { annotations: { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" } });
    expect(await findings(pair.desired, undefined)).toMatchObject([
      { status: "in-sync", leftAlone: "annotation kustomize.toolkit.fluxcd.io/reconcile: disabled" },
    ]);
  });

  it("takes ssa: IfNotPresent from Git as Flux does: a missing object is missing, one that exists is left as it is", async () => {
    const meta = { annotations: { "kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent" } };
    const pair = handEdited("desired", meta);
    expect(await findings(pair.desired, pair.live)).toMatchObject([
      { status: "in-sync", leftAlone: "annotation kustomize.toolkit.fluxcd.io/ssa: IfNotPresent" },
    ]);
    expect(await findings(pair.desired, undefined)).toMatchObject([{ status: "missing", leftAlone: undefined }]);
    // Flux reads IfNotPresent from the desired object only: on the live one it changes nothing.
    const onLive = handEdited("live", meta);
    expect((await findings(onLive.desired, onLive.live))[0]?.status).toBe("drifted");
  });

  it("leaves out the orphans Argo CD ignores as extraneous and those Flux does not reconcile", async () => {
    const tracked = (name: string, labels: Record<string, string> = {}) => configMap(name, { app: "shop", ...labels });
    const extraneous = tracked("extraneous");
    extraneous.metadata.annotations = { "argocd.argoproj.io/compare-options": "ServerSideDiff=true, IgnoreExtraneous" };
    const disabled = tracked("disabled", { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" });
    // Argo CD reads its options from annotations only.
    const labelled = tracked("labelled", { "argocd.argoproj.io/compare-options": "IgnoreExtraneous" });
    const plain = tracked("plain");
    const objects = new Map([extraneous, disabled, labelled, plain].map((o) => [keyString(objectKey(o)), o]));
    const pairings = reconcile({
      desired: [],
      live: { byDesired: new Map(), unknown: new Set() },
      comparisons: new Map(),
      tracked: objects,
    });
    expect(pairings.map((p) => [p.live?.metadata.name, findingOf(p)])).toEqual([
      ["labelled", "orphaned"],
      ["plain", "orphaned"],
    ]);
  });
});
