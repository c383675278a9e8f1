// A Deployment the real controllers roll out, scanned as a platform engineer
// scans it: what kube-controller-manager writes (the revision annotation, status,
// ReplicaSets, Pods on kwok's nodes) is not drift and makes no orphan; a
// `kubectl rollout restart` is not drift either, while `kubectl scale` by a
// person is, with its manager named.
import { afterEach, describe, expect, it } from "vitest";
import { dependents, eventually, getJson, rolledOut } from "../helpers/controllers.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const manifests = {
  "manifests/web.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: registry.example/web:1.0
          resources:
            requests: {cpu: "0.1"}
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - port: 80
`,
};

let current: Scenario | undefined;
// cleanup deletes the scenario's namespace, and with it the pods the controllers made.
afterEach(() => current?.cleanup());

async function rolledOutWeb(): Promise<Scenario> {
  current = scenario({ files: manifests });
  await current.applyGit();
  await rolledOut(current.namespace, "web");
  return current;
}

describe("a Deployment the controllers rolled out", () => {
  it("scans in sync: revision, status, ReplicaSets, Pods and the Service's endpoints are no drift and no orphans", async () => {
    const s = await rolledOutWeb();
    const live = await getJson(["-n", s.namespace, "get", "deployment", "web"]);
    expect(live.metadata.annotations["deployment.kubernetes.io/revision"]).toBe("1");
    expect(live.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    const { replicaSets, pods } = await dependents(s.namespace);
    expect(replicaSets).toHaveLength(1);
    expect(pods.map((p) => p.status.phase)).toEqual(["Running", "Running"]);

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 2, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.report.resources.map((r) => `${r.kind}/${r.name}:${r.status}`).sort()).toEqual([
      "Deployment/web:in-sync",
      "Service/web:in-sync",
    ]);
    expect(scan.code).toBe(0);
  }, 150_000);

  it("stays in sync after `kubectl rollout restart` rolls new pods", async () => {
    const s = await rolledOutWeb();
    const before = (await dependents(s.namespace)).pods.map((p) => p.metadata.name);
    await kubectl(["-n", s.namespace, "rollout", "restart", "deployment/web"]);
    await eventually("the restart to replace every pod", async () => {
      await rolledOut(s.namespace, "web");
      const { replicaSets, pods } = await dependents(s.namespace);
      const running = pods.filter((p) => !p.metadata.deletionTimestamp);
      const replaced = running.length === 2 && running.every((p) => !before.includes(p.metadata.name));
      return replicaSets.length === 2 && replaced ? true : undefined;
    });
    const live = await getJson(["-n", s.namespace, "get", "deployment", "web"]);
    expect(live.spec.template.metadata.annotations["kubectl.kubernetes.io/restartedAt"]).toBeDefined();
    expect(live.metadata.annotations["deployment.kubernetes.io/revision"]).toBe("2");

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 2, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);
  }, 150_000);

  it("reports `kubectl scale` by a person as drift of /spec/replicas, naming kubectl's manager", async () => {
    const s = await rolledOutWeb();
    await kubectl(["-n", s.namespace, "scale", "deployment/web", "--replicas=3"]);
    await rolledOut(s.namespace, "web");

    const scan = await s.scanJson();
    expect(scan.code).toBe(1);
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 1, missing: 0, orphaned: 0 });
    const web = scan.report.resources.find((r) => r.kind === "Deployment");
    expect(web?.changes).toEqual([
      expect.objectContaining({
        path: "/spec/replicas",
        desired: 2,
        live: 3,
        manager: expect.stringMatching(/^kubectl/),
      }),
    ]);
  }, 150_000);
});
