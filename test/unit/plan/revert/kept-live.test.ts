import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../../src/config/load-config.ts";
import type { Pairing } from "../../../../src/drift/build-report.ts";
import { compareObject } from "../../../../src/drift/compare-object.ts";
import { comparePolicy } from "../../../../src/drift/compare-policy.ts";
import { loadJq } from "../../../../src/drift/jq.ts";
import type { KubeObject, ManagedFieldsEntry } from "../../../../src/model/types.ts";
import { keptLive } from "../../../../src/plan/revert/kept-live.ts";

const deployment = (replicas: number, image: string, managedFields?: ManagedFieldsEntry[]): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop", ...(managedFields ? { managedFields } : {}) },
  spec: { replicas, template: { spec: { containers: [{ name: "web", image }] } } },
});
const field = (manager: string, operation: "Apply" | "Update", fieldsV1: ManagedFieldsEntry["fieldsV1"]) => ({
  manager,
  operation,
  apiVersion: "apps/v1",
  fieldsType: "FieldsV1",
  time: "2026-11-30T10:00:00Z",
  fieldsV1,
});

async function scan(ignore: string, live: KubeObject) {
  const config = loadConfig(`targets:\n  - name: a\n    cluster: c\n    path: p\n    mode: revert\n${ignore}`);
  const target = config.targets[0]!;
  const policy = comparePolicy(target, await loadJq());
  const desired = deployment(2, "web:1");
  const comparison = compareObject({ desired, live, group: "apps", policy });
  const pairings: Pairing[] = [
    { desired: { object: desired, source: { file: "p/d.yaml", document: 0 } }, live, comparison },
  ];
  return { target, policy, pairings };
}

// An HPA scaled the Deployment to 5; someone then set its image by hand.
const scaledAndEdited = () =>
  deployment(5, "web:2", [
    field("undrift", "Apply", {
      "f:spec": {
        "f:replicas": {},
        "f:template": {
          "f:spec": { "f:containers": { 'k:{"name":"web"}': { ".": {}, "f:name": {}, "f:image": {} } } },
        },
      },
    }),
    field("kube-controller-manager", "Update", { "f:spec": { "f:replicas": {} } }),
    field("kubectl-set", "Update", {
      "f:spec": { "f:template": { "f:spec": { "f:containers": { 'k:{"name":"web"}': { "f:image": {} } } } } },
    }),
  ]);

describe("what a revert keeps live, known when its pull request opens", () => {
  it("names the exempt fields of a drifted object whose live value differs from Git's", async () => {
    const s = await scan(
      "    ignoreDifferences:\n      - group: apps\n        kind: Deployment\n        jsonPointers: [/spec/replicas]\n",
      scaledAndEdited(),
    );
    expect(s.pairings[0]!.comparison!.changes.map((c) => c.path)).toEqual(["/spec/template/spec/containers/0/image"]);
    expect(keptLive(s)).toEqual(new Map([["apps/Deployment/shop/web", ["/spec/replicas"]]]));
  });

  it("keeps nothing when the target applies all of Git (respectIgnoreDifferences: false)", async () => {
    const s = await scan(
      "    respectIgnoreDifferences: false\n    ignoreDifferences:\n      - group: apps\n        kind: Deployment\n        jsonPointers: [/spec/replicas]\n",
      scaledAndEdited(),
    );
    expect(keptLive(s).size).toBe(0);
  });
});
