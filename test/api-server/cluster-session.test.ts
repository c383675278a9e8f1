// Scans of one cluster that share a session: the second target's scan sends no
// discovery and no LIST of its own, and finds exactly what a scan alone finds.
import { afterEach, describe, expect, it } from "vitest";
import { runScan } from "../../src/cli/run-scan.ts";
import { ClusterSession } from "../../src/live/cluster-session.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const scenarios: Scenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((s) => s.cleanup()));
});

async function target(replicas: number): Promise<Scenario> {
  const s = scenario({ files: { "manifests/web.yaml": webDeployment } });
  scenarios.push(s);
  await s.applyGit();
  await kubectl(["scale", "deployment", "web", "-n", s.namespace, `--replicas=${replicas}`]);
  return s;
}

describe("ClusterSession", () => {
  it("answers a second target's scan from the first one's LISTs, with the same drift", async () => {
    const [a, b] = [await target(4), await target(7)];
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    const scan = (s: Scenario, session?: ClusterSession) =>
      runScan({ repoDir: s.repoDir, targetName: s.target, kubeConfig, ...(session ? { session } : {}) });

    const alone = await scan(b);
    const session = new ClusterSession(kubeConfig, { shareLists: true });
    const first = await scan(a, session);
    const second = await scan(b, session);

    // Each target sees only its own objects, and the drift a scan alone sees.
    expect(first.report.resources.map((r) => `${r.namespace}/${r.name}`)).toEqual([`${a.namespace}/web`]);
    expect(second.report.resources.map((r) => `${r.namespace}/${r.name}`)).toEqual([`${b.namespace}/web`]);
    expect(second.report.fingerprint).toBe(alone.report.fingerprint);
    expect(second.report.resources[0]?.changes).toContainEqual(
      expect.objectContaining({ path: "/spec/replicas", live: 7 }),
    );
    // Alone: discovery plus a LIST per kind, then the dry-run. Shared: only the dry-run.
    expect(alone.report.stats!.requests).toBeGreaterThan(20);
    expect(second.report.stats!.requests).toBe(second.report.stats!.dryRuns);
  });

  it("sends one dry-run for the same object however many scans ask, and gives each its own copy", async () => {
    const s = await target(3);
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    const session = new ClusterSession(kubeConfig);
    const resource = (await session.discover()).find("v1", "ConfigMap")!;
    const object = (value: string) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cfg", namespace: s.namespace },
      data: { color: value },
    });
    const before = session.client.requests;
    const [a, b] = await Promise.all([
      session.dryRunApply({ resource, object: object("blue"), fieldManager: "undrift" }),
      session.dryRunApply({ resource, object: object("blue"), fieldManager: "undrift" }),
    ]);
    expect(session.client.requests - before).toBe(1);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    await session.dryRunApply({ resource, object: object("green"), fieldManager: "undrift" });
    await session.dryRunApply({ resource, object: object("blue"), fieldManager: "someone-else" });
    expect(session.client.requests - before).toBe(3);
    // Dry-runs only: nothing was made.
    await expect(kubectl(["get", "configmap", "cfg", "-n", s.namespace])).rejects.toThrow(/NotFound/);
  });
});
