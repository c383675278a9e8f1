// A test's pods run on its namespace's own node whatever fills the shared ones:
// here a Deployment of more pods than the two shared kwok nodes hold (as another
// run's pending pods would), and beside it a scenario whose Deployment still rolls
// out. The filler takes the whole cluster's spare capacity, so this file runs
// alone, after the others, in the end-to-end tier.
import { afterAll, describe, expect, it } from "vitest";
import { nodeNames, ownNodeName } from "../../scripts/cluster/kwok.ts";
import { uniqueName } from "../helpers/cluster.ts";
import { deleteNamespaces, eventually, getJson, type Obj, rolledOut } from "../helpers/controllers.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const filler = uniqueName("filler");
let current: Scenario | undefined;
// Deleting the namespace deletes its pods, on failure as on success: kwok deletes those it runs, the API
// server the unscheduled ones.
afterAll(async () => {
  await deleteNamespaces([filler]);
  await current?.cleanup();
});

/** How many pods the shared nodes hold, as their status says. */
async function sharedCapacity(): Promise<number> {
  const nodes = await Promise.all(nodeNames.map((name) => getJson(["get", "node", name])));
  return nodes.reduce((sum, node) => sum + Number(node.status.allocatable.pods), 0);
}

const unschedulable = (pod: Obj) =>
  pod.status?.conditions?.some((c: Obj) => c.type === "PodScheduled" && c.reason === "Unschedulable");

describe("a namespace's own node", () => {
  it("runs a scenario's Deployment while the shared nodes are full, and takes none of the other pods", {
    timeout: 180_000,
  }, async () => {
    await kubectl(["create", "namespace", filler]);
    const replicas = (await sharedCapacity()) + 30;
    await kubectl([
      "-n",
      filler,
      "create",
      "deployment",
      "fill",
      "--image=registry.example/fill:1.0",
      `--replicas=${replicas}`,
    ]);
    const pending = await eventually("a filler pod the scheduler cannot place: the shared nodes are full", async () => {
      const pods = (await getJson(["-n", filler, "get", "pods"])).items as Obj[];
      return pods.find(unschedulable);
    });
    expect(JSON.stringify(pending.status.conditions)).toContain("Too many pods");

    current = scenario({ files: { "manifests/web.yaml": webDeployment } });
    const s = current;
    await s.applyGit();
    await rolledOut(s.namespace, "web");
    const web = (await getJson(["-n", s.namespace, "get", "pods", "-l", "app=web"])).items as Obj[];
    expect(web.map((pod) => pod.spec.nodeName)).toEqual([ownNodeName(s.namespace), ownNodeName(s.namespace)]);

    const placed = ((await getJson(["-n", filler, "get", "pods"])).items as Obj[]).filter((pod) => pod.spec.nodeName);
    expect(placed.filter((pod) => !nodeNames.includes(pod.spec.nodeName))).toEqual([]);
  });
});
