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
