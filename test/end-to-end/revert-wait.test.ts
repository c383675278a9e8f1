// `undrift revert --wait` against real controllers: it returns once the
// Deployment it created has rolled out and is Available, and it reports, within
// the target's `timeout` and with the reason, what cannot get there: a Deployment
// whose pods kwok keeps unready, and a LoadBalancer Service that no cloud
// controller gives an address. Either makes the revert incomplete (exit 1).
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { getJson, revert } from "../helpers/controllers.ts";
import { unreadyWebDeployment, webDeployment } from "../helpers/manifests.ts";
import { giveOwnNode } from "../helpers/own-node.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
// cleanup deletes the scenario's namespace, and with it the pods the controllers made.
afterEach(() => current?.cleanup());

const loadBalancer = `apiVersion: v1
kind: Service
metadata:
  name: edge
spec:
  type: LoadBalancer
  selector: {app: edge}
  ports:
    - port: 443
`;

/** `revert` into the scenario's namespace (which exists, as Git does not declare it). */
async function revertInto(s: Scenario, flags: string[]) {
  await kubectl(["create", "namespace", s.namespace]);
  await giveOwnNode(s.namespace);
  return revert(s, flags);
}

describe("revert --wait", () => {
  it("returns once the Deployment it created has rolled out and is Available", async () => {
    current = scenario({ files: { "manifests/web.yaml": webDeployment }, target: { timeout: "90s" } });
    const s = current;
    const result = await revertInto(s, ["--wait", "-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [record] = (JSON.parse(result.stdout) as RevertResult).resources;
    expect(record).toMatchObject({
      kind: "Deployment",
      action: "created",
      health: { status: "healthy", waited: true },
    });

    // Read right after the command returned: the rollout was done, not merely started.
    const live = await getJson(["-n", s.namespace, "get", "deployment", "web"]);
    expect(live.status).toMatchObject({ replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 });
    const available = live.status.conditions.find((c: { type: string }) => c.type === "Available");
    expect(available.status).toBe("True");
  }, 150_000);

  it("reports a Deployment whose pods never become ready as timed out, with why, within the timeout", async () => {
    current = scenario({ files: { "manifests/web.yaml": unreadyWebDeployment }, target: { timeout: "8s" } });
    const s = current;
    const result = await revertInto(s, ["--wait"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^created {2,}apps\/v1 Deployment \S+\/web$/m);
    // The wait ended because the target's timeout passed (not ready in time), with the last reason read; the
    // deadline itself, from the timeout and a clock, is wait-for-health's unit test's (injected clock).
    expect(result.stdout).toMatch(/^ +health: timed-out: not ready in time: 0 of 2 updated replicas available$/m);
  }, 150_000);

  it("reports a LoadBalancer Service no load balancer answers as not ready within the timeout", async () => {
    current = scenario({ files: { "manifests/edge.yaml": loadBalancer }, target: { timeout: "5s" } });
    const s = current;
    const result = await revertInto(s, ["--wait", "-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const [record] = (JSON.parse(result.stdout) as RevertResult).resources;
    expect(record).toMatchObject({
      kind: "Service",
      action: "created",
      health: {
        status: "timed-out",
        message: "not ready in time: no load balancer address yet (status.loadBalancer.ingress is empty)",
        waited: true,
      },
    });
  }, 150_000);
});
