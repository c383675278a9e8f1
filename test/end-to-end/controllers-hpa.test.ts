// A Deployment scaled by its HorizontalPodAutoscaler, for real: kwok reports
// 500m of CPU used per pod against 100m requested, metrics-server serves it, and
// the HPA controller scales 1 -> 3 through the scale subresource. When Git leaves
// `replicas` out, the HPA's writes are the controller's business and not drift;
// when Git sets `replicas` and no rule ignores it, the scan shows the drift with
// the HPA controller's field manager named, as Flux and Argo CD users know it.
import { describe, expect, it, type TestContext } from "vitest";
import { deleteNamespaces, eventually, getJson, targetConfig } from "../helpers/controllers.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

/** A scenario that is cleaned up when its test ends (the tests run concurrently, so not in afterEach). */
function scenarioFor(context: TestContext, files: Record<string, string>): Scenario {
  const s = scenario({ files });
  context.onTestFinished(async () => {
    await s.cleanup();
    await deleteNamespaces([s.namespace]);
  });
  return s;
}

function autoscaled(replicas: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: busy
spec:${replicas}
  selector:
    matchLabels: {app: busy}
  template:
    metadata:
      labels: {app: busy}
      annotations:
        kwok.x-k8s.io/usage-cpu: 500m
    spec:
      containers:
        - name: app
          image: registry.example/busy:1.0
          resources:
            requests: {cpu: 100m}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: busy
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: busy}
  minReplicas: 1
  maxReplicas: 3
  metrics:
    - type: Resource
      resource:
        name: cpu
        target: {type: Utilization, averageUtilization: 50}
`;
}

/** Applies Git and waits until the HPA has scaled the Deployment to its maximum; returns who owns spec.replicas. */
async function scaledByHpa(s: Scenario): Promise<string[]> {
  await s.applyGit();
  const live = await eventually(
    "the HPA to scale the Deployment to 3",
    async () => {
      const d = await getJson(["-n", s.namespace, "get", "deployment", "busy", "--show-managed-fields"]);
      return d.spec.replicas === 3 ? d : undefined;
    },
    150_000,
  );
  type Entry = { manager: string; subresource?: string; fieldsV1?: { "f:spec"?: unknown } };
  return (live.metadata.managedFields as Entry[])
    .filter((f) => f.subresource !== "status" && JSON.stringify(f.fieldsV1?.["f:spec"] ?? {}).includes('"f:replicas"'))
    .map((f) => f.manager);
}

describe.concurrent("replicas an HPA scales", () => {
  it("are not drift when Git leaves replicas out", async (context) => {
    const s = scenarioFor(context, { "manifests/busy.yaml": autoscaled("") });
    // Scaling a replicas field no one owned leaves it unowned: only the value says the HPA was there.
    expect(await scaledByHpa(s)).toEqual([]);

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 2, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);
  }, 200_000);

  it("are drift, named to the HPA controller's manager, when Git sets replicas and no rule ignores it", async (context) => {
    const s = scenarioFor(context, { "manifests/busy.yaml": autoscaled("\n  replicas: 1") });
    const owners = await scaledByHpa(s);
    expect(owners).toContain("kube-controller-manager");

    const scan = await s.scanJson();
    expect(scan.code).toBe(1);
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 1, missing: 0, orphaned: 0 });
    const busy = scan.report.resources.find((r) => r.kind === "Deployment");
    expect(busy?.changes).toEqual([
      expect.objectContaining({ path: "/spec/replicas", desired: 1, live: 3, manager: "kube-controller-manager" }),
    ]);

    // The rule Argo CD users write for an HPA-scaled Deployment makes the same scan clean.
    s.write({
      ".github/undrift.yml": targetConfig(s, {
        ignoreDifferences: [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }],
      }),
    });
    const ignored = await s.scanJson();
    expect(ignored.report.summary).toEqual({ inSync: 2, drifted: 0, missing: 0, orphaned: 0 });
    expect(ignored.code).toBe(0);
  }, 200_000);
});
