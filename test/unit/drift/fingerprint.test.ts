import { describe, expect, it } from "vitest";
import { buildReport, type Pairing } from "../../../src/drift/build-report.ts";
import { fingerprint } from "../../../src/drift/fingerprint.ts";
import type { KubeObject, ResourceReport } from "../../../src/model/types.ts";
import { type Case, compare, containersOf, dataOf, fixture, fixtureCase } from "./drift-fixtures.ts";

const source = { file: "apps/shop/web.yaml", document: 0 };

async function pairing(pair: Case): Promise<Pairing> {
  return { desired: { object: pair.desired, source }, live: pair.live, comparison: await compare(pair) };
}

async function fingerprintOf(...pairs: Case[]): Promise<string> {
  const pairings = await Promise.all(pairs.map(pairing));
  return buildReport({ target: "shop", revision: "0c5f3e1", pairings, problems: [] }).fingerprint;
}

/** The same object, with its managers' timestamps moved and every map's keys in reverse order. */
function later(object: KubeObject): KubeObject {
  const moved = structuredClone(object);
  for (const entry of moved.metadata.managedFields ?? []) {
    if (entry.time) entry.time = entry.time.replace("2026-11-30", "2026-12-01");
  }
  moved.metadata.resourceVersion = "99999";
  return reverseKeys(moved) as KubeObject;
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  }
  return value;
}

describe("the drift fingerprint", () => {
  it("is the same for the same drift found later, with other timestamps and key order", async () => {
    const first = fixtureCase("deployment-hand-edited");
    const again = fixtureCase("deployment-hand-edited");
    again.live = later(again.live);
    again.desired = reverseKeys(again.desired) as KubeObject;

    const [a, b] = [await fingerprintOf(first), await fingerprintOf(again)];
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(b).toBe(a);
  });

  it("does not depend on the order of objects or of their changes", async () => {
    const forward = await fingerprintOf(fixtureCase("deployment-hand-edited"), fixtureCase("configmap-dropped-key"));
    const backward = await fingerprintOf(fixtureCase("configmap-dropped-key"), fixtureCase("deployment-hand-edited"));
    expect(backward).toBe(forward);

    const report = buildReport({
      target: "shop",
      revision: "0c5f3e1",
      pairings: [await pairing(fixtureCase("deployment-hand-edited"))],
      problems: [],
    });
    const reversed: ResourceReport[] = report.resources.map((r) => ({ ...r, changes: [...r.changes].reverse() }));
    expect(fingerprint(reversed)).toBe(report.fingerprint);
  });

  it("changes when a drifted value changes", async () => {
    const other = fixtureCase("deployment-hand-edited");
    containersOf(other.live)[1]!.image = "ghcr.io/acme/web:1.4.4-hotfix";
    expect(await fingerprintOf(other)).not.toBe(await fingerprintOf(fixtureCase("deployment-hand-edited")));
  });

  it("changes when another field drifts", async () => {
    const more = fixtureCase("deployment-scaled");
    expect(await fingerprintOf(fixtureCase("deployment-hand-edited"), more)).not.toBe(
      await fingerprintOf(fixtureCase("deployment-hand-edited")),
    );
  });

  it("ignores objects in sync", async () => {
    expect(await fingerprintOf(fixtureCase("deployment-hand-edited"), fixtureCase("secret-string-data"))).toBe(
      await fingerprintOf(fixtureCase("deployment-hand-edited")),
    );
  });

  it("keeps a Secret's fingerprint when its value changes again, so no value can be guessed from it", async () => {
    const again = fixtureCase("secret-edited");
    dataOf(again.live).password = Buffer.from("hunter3-hotfix").toString("base64");
    expect(await fingerprintOf(again)).toBe(await fingerprintOf(fixtureCase("secret-edited")));
  });

  it("tells a missing object from an orphaned one", () => {
    const object = fixture("configmap-dropped-key-desired");
    const resource = (status: ResourceReport["status"]): ResourceReport => ({
      apiVersion: object.apiVersion,
      kind: object.kind,
      namespace: "shop",
      name: object.metadata.name,
      status,
      changes: [],
    });
    expect(fingerprint([resource("missing")])).not.toBe(fingerprint([resource("orphaned")]));
    expect(fingerprint([resource("in-sync")])).toBe(fingerprint([]));
  });
});
