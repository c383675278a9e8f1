import { describe, expect, it } from "vitest";
import { controllerOf, orphanPairings } from "../../../src/drift/orphan-pairings.ts";
import { keyString, objectKey } from "../../../src/model/object-key.ts";
import type { KubeObject } from "../../../src/model/types.ts";

const labels = { "undrift.dev/target": "shop" };
const deployment: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop", uid: "d-1", labels },
};
const replicaSet = (ownerReferences: unknown[]): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  metadata: { name: "web-5d8f9", namespace: "shop", labels, ownerReferences },
});
const owner = { apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "d-1" };

function pair(live: KubeObject[], declared: KubeObject[]) {
  const tracked = new Map(live.map((o) => [keyString(objectKey(o)), o]));
  const keys = new Set(declared.map((o) => keyString(objectKey(o))));
  return orphanPairings({ tracked, declared: keys }).map((p) => `${p.live?.kind}/${p.live?.metadata.name}`);
}

describe("which tracked objects are orphans", () => {
  it("a ReplicaSet its Deployment controls is not an orphan, though it carries the tracking label", () => {
    expect(pair([deployment, replicaSet([{ ...owner, controller: true }])], [deployment])).toEqual([]);
  });

  it("stays out even when its owner is gone from Git too: the owner is the orphan, the garbage collector takes the rest", () => {
    expect(pair([deployment, replicaSet([{ ...owner, controller: true }])], [])).toEqual(["Deployment/web"]);
  });

  it("an object with only non-controller ownerReferences is still an orphan", () => {
    const shared = replicaSet([
      { ...owner, controller: false },
      { ...owner, kind: "Other" },
    ]);
    expect(pair([deployment, shared], [deployment])).toEqual(["ReplicaSet/web-5d8f9"]);
    expect(controllerOf(shared)).toBeUndefined();
  });

  it("tracked objects Git does not declare and nothing owns are orphans", () => {
    const config: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "old", namespace: "shop" } };
    expect(pair([deployment, config], [deployment])).toEqual(["ConfigMap/old"]);
  });
  it("the Endpoints the endpoints controller keeps for a tracked Service is not an orphan; one with no Service is", () => {
    const service: KubeObject = {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "shop", labels },
    };
    const endpoints = (name: string): KubeObject => ({
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name, namespace: "shop", labels },
    });
    expect(pair([service, endpoints("web")], [service])).toEqual([]);
    expect(pair([service, endpoints("web")], [])).toEqual(["Service/web"]);
    expect(pair([service, endpoints("manual")], [service])).toEqual(["Endpoints/manual"]);
  });

  it("a claim a tracked StatefulSet made from its volumeClaimTemplates is not an orphan; one that fits no template is", () => {
    const set: KubeObject = {
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db", namespace: "shop", labels },
      spec: { volumeClaimTemplates: [{ metadata: { name: "data" } }, { metadata: { name: "wal-log" } }] },
    };
    const claim = (name: string, namespace = "shop"): KubeObject => ({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name, namespace, labels },
    });
    const made = [claim("data-db-0"), claim("data-db-1"), claim("wal-log-db-12")];
    expect(pair([set, ...made], [set])).toEqual([]);
    const strays = [claim("data-db"), claim("data-db-x"), claim("cache-db-0"), claim("data-db-0", "other")];
    expect(pair([set, ...strays], [set])).toEqual([
      "PersistentVolumeClaim/data-db",
      "PersistentVolumeClaim/data-db-x",
      "PersistentVolumeClaim/cache-db-0",
      "PersistentVolumeClaim/data-db-0",
    ]);
    // Once the set is gone from the cluster, a claim it left behind is a leftover like any other.
    expect(pair([claim("data-db-0")], [])).toEqual(["PersistentVolumeClaim/data-db-0"]);
    // Gone from Git but still running, the set is the orphan, and its claims stay with it.
    expect(pair([set, ...made], [])).toEqual(["StatefulSet/db"]);
  });
});
