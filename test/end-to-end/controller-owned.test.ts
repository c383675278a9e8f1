// Objects a controller owns are never orphans, against a real API server: a
// ReplicaSet that carries the target's tracking label (as it does whenever the
// label reaches the pod template) and a controller ownerReference to the
// target's Deployment is neither reported, pruned (even with --force-prune) nor
// codified. Here the tracking label stays out of the pod template, so the
// deployment controller's own ReplicaSet does not carry it; the test creates a
// labelled one, owned by the real Deployment's uid, as that controller does
// whenever the label reaches the template.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { singleWebDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

/** The Deployment's ReplicaSet as the Deployment controller makes it: the tracking label from the template, a controller ownerReference. */
async function ownedReplicaSet(s: Scenario): Promise<void> {
  const uid = (await kubectl(["-n", s.namespace, "get", "deploy/web", "-o", "jsonpath={.metadata.uid}"])).trim();
  const labels = { app: "web", "pod-template-hash": "5d8f9", "undrift.dev/target": s.target };
  const replicaSet = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name: "web-5d8f9",
      namespace: s.namespace,
      labels,
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "Deployment", name: "web", uid, controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "web", "pod-template-hash": "5d8f9" } },
      template: { metadata: { labels }, spec: { containers: [{ name: "web", image: "nginx:1.27" }] } },
    },
  };
  await kubectl(["create", "-f", "-"], JSON.stringify(replicaSet));
}

const replicaSetExists = (s: Scenario) =>
  kubectl(["-n", s.namespace, "get", "replicaset", "web-5d8f9", "-o", "name"]).then(
    () => true,
    () => false,
  );

describe("objects a controller owns", () => {
  it("are not orphans: the scan is in sync, revert --prune --force-prune deletes nothing, codify adds nothing", async () => {
    current = scenario({ files: { "manifests/web.yaml": singleWebDeployment } });
    const s = current;
    await s.applyGit();
    await ownedReplicaSet(s);

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.report.resources.map((r) => `${r.kind}/${r.name}`)).toEqual(["Deployment/web"]);
    expect(scan.code).toBe(0);

    const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    const revert = await undrift([...args, "--prune", "--force-prune", "-o", "json"]);
    expect(revert.stderr).toBe("");
    expect(revert.code).toBe(0);
    const result = JSON.parse(revert.stdout) as RevertResult;
    expect(result.resources.map((r) => [`${r.kind}/${r.name}`, r.action])).toEqual([["Deployment/web", "unchanged"]]);
    expect(await replicaSetExists(s)).toBe(true);

    const codify = await undrift([
      "codify",
      "--repo",
      s.repoDir,
      "--target",
      s.target,
      "--kubeconfig",
      kubeconfigPath(),
    ]);
    expect(codify.stderr).toBe("");
    expect(codify.code).toBe(0);
    expect(codify.stdout).toContain("nothing to codify");
    expect(readdirSync(join(s.repoDir, "manifests"))).toEqual(["web.yaml"]);
    expect(readFileSync(join(s.repoDir, "manifests/web.yaml"), "utf8")).toBe(singleWebDeployment);
  });
});
