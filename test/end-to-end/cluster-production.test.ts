// The test cluster behaves like a production one, as a user of kubectl sees it:
// controllers roll Deployments out onto (kwok's) nodes, the garbage collector and
// the namespace controller finish deletes, the HPA scales from metrics-server, a
// webhook mutates what it is scoped to, discovery serves a platform's worth of
// kinds, and the latency proxy forwards the API faithfully.
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { writeKubeconfigFor } from "../../scripts/cluster/kubeconfig.ts";
import { ownNodeName, unreadyAnnotation } from "../../scripts/cluster/kwok.ts";
import { startLatencyProxy } from "../../scripts/cluster/latency-proxy.ts";
import { injectLabel } from "../../scripts/cluster/webhook.ts";
import { injected } from "../../scripts/cluster/webhook-server.ts";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { eventually } from "../helpers/eventually.ts";
import { giveOwnNode } from "../helpers/own-node.ts";

// biome-ignore lint/suspicious/noExplicitAny: kubectl's JSON, read field by field as a user reads it.
type Obj = Record<string, any>;

const namespaces: string[] = [];
afterAll(async () => {
  if (namespaces.length) await kubectl(["delete", "namespace", "--wait=false", ...namespaces]).catch(() => undefined);
});

async function namespace(labels: Record<string, string> = {}): Promise<string> {
  const name = uniqueName("prod");
  namespaces.push(name);
  await kubectl(
    ["apply", "-f", "-"],
    JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name, labels } }),
  );
  await giveOwnNode(name);
  return name;
}

async function getJson(args: string[]): Promise<Obj> {
  return JSON.parse(await kubectl([...args, "-o", "json"]));
}

function deployment(ns: string, name: string, replicas: number, podAnnotations: Record<string, string> = {}) {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: podAnnotations },
        spec: {
          containers: [{ name: "app", image: "registry.example/app:1.0", resources: { requests: { cpu: "100m" } } }],
        },
      },
    },
  };
}

const ready = (pod: Obj) => pod.status?.conditions?.some((c: Obj) => c.type === "Ready" && c.status === "True");

async function rolledOut(ns: string, name: string): Promise<void> {
  await kubectl(["-n", ns, "rollout", "status", `deployment/${name}`, "--timeout=90s"]);
}

const pods = async (ns: string, app: string) =>
  (await getJson(["-n", ns, "get", "pods", "-l", `app=${app}`])).items as Obj[];
const replicaSets = async (ns: string, app: string) =>
  (await getJson(["-n", ns, "get", "replicasets", "-l", `app=${app}`])).items as Obj[];

describe("the test cluster's controllers", () => {
  it("rolls a Deployment out: a ReplicaSet it owns and Ready pods on the namespace's own kwok node", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "web", 2)));
    await rolledOut(ns, "web");
    const [rs, ...more] = await replicaSets(ns, "web");
    expect(more).toEqual([]);
    expect(rs?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: "Deployment", name: "web", controller: true }),
    ]);
    const running = await pods(ns, "web");
    expect(running).toHaveLength(2);
    for (const pod of running) {
      expect(ready(pod)).toBe(true);
      expect(pod.spec.nodeName).toBe(ownNodeName(ns));
      expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: "ReplicaSet", name: rs?.metadata.name });
    }
  });

  it("deletes a deleted Deployment's ReplicaSets and Pods (background propagation)", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "gone", 2)));
    await rolledOut(ns, "gone");
    await kubectl(["-n", ns, "delete", "deployment", "gone", "--cascade=background"]);
    await eventually("the garbage collector to delete the ReplicaSets and Pods", async () => {
      const left = [...(await replicaSets(ns, "gone")), ...(await pods(ns, "gone"))];
      return left.length === 0 ? true : undefined;
    });
  });

  it("leaves a Deployment's ReplicaSets and Pods, without their owner, when deleted with propagationPolicy Orphan", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "kept", 1)));
    await rolledOut(ns, "kept");
    await kubectl(["-n", ns, "delete", "deployment", "kept", "--cascade=orphan"]);
    const [rs] = await eventually("the ReplicaSet to lose its owner reference", async () => {
      const sets = await replicaSets(ns, "kept");
      return sets.length === 1 && !sets[0]?.metadata.ownerReferences ? sets : undefined;
    });
    expect(rs?.metadata.deletionTimestamp).toBeUndefined();
    const left = await pods(ns, "kept");
    expect(left).toHaveLength(1);
    expect(left[0]?.metadata.ownerReferences[0]).toMatchObject({ kind: "ReplicaSet", name: rs?.metadata.name });
  });

  it("finishes deleting a Namespace and everything in it, and then its own node", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "inside", 1)));
    await rolledOut(ns, "inside");
    await kubectl(["delete", "namespace", ns, "--wait=false"]);
    await eventually("the namespace to be gone", () =>
      kubectl(["get", "namespace", ns]).then(
        () => undefined,
        (error: { stderr?: string }) => (String(error.stderr).includes("NotFound") ? true : undefined),
      ),
    );
    await eventually("the garbage collector to delete the namespace's node", () =>
      kubectl(["get", "node", ownNodeName(ns)]).then(
        () => undefined,
        (error: { stderr?: string }) => (String(error.stderr).includes("NotFound") ? true : undefined),
      ),
    );
  });

  it("gives every namespace its default ServiceAccount", async () => {
    const ns = await namespace();
    const account = await eventually("the default ServiceAccount", () =>
      getJson(["-n", ns, "get", "serviceaccount", "default"]),
    );
    expect(account.metadata.name).toBe("default");
    expect((await getJson(["-n", "default", "get", "serviceaccount", "default"])).metadata.name).toBe("default");
  });

  it("runs a pod annotated unready without it ever becoming Ready, so its rollout never completes", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "stuck", 1, { [unreadyAnnotation]: "true" })));
    const [pod] = await eventually("the pod to run", async () => {
      const list = await pods(ns, "stuck");
      return list[0]?.status?.phase === "Running" ? list : undefined;
    });
    const condition = pod?.status.conditions.find((c: Obj) => c.type === "Ready");
    expect(condition).toMatchObject({ status: "False", reason: "ReadinessProbeFailed" });
    const rollout = kubectl(["-n", ns, "rollout", "status", "deployment/stuck", "--timeout=3s"]);
    await expect(rollout).rejects.toThrow();
  });

  it("scales a Deployment with its HPA from the CPU usage metrics-server reads from kwok", async () => {
    const ns = await namespace();
    // 500m used of 100m requested: 500% against a 50% target, so the HPA goes to its maximum.
    await kubectl(
      ["apply", "-f", "-"],
      JSON.stringify(deployment(ns, "busy", 1, { "kwok.x-k8s.io/usage-cpu": "500m" })),
    );
    const hpa = {
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "busy", namespace: ns },
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "busy" },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [
          { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 50 } } },
        ],
      },
    };
    await kubectl(["apply", "-f", "-"], JSON.stringify(hpa));
    await eventually(
      "the HPA to scale the Deployment to 3",
      async () => ((await getJson(["-n", ns, "get", "deployment", "busy"])).spec.replicas === 3 ? true : undefined),
      150_000,
    );
    const scaled = await getJson(["-n", ns, "get", "deployment", "busy", "--show-managed-fields"]);
    const replicasOwners = scaled.metadata.managedFields
      .filter((f: Obj) => JSON.stringify(f.fieldsV1 ?? {}).includes('"f:replicas"') && f.subresource === "scale")
      .map((f: Obj) => f.manager);
    expect(replicasOwners).toContain("kube-controller-manager");
    const metrics = JSON.parse(await kubectl(["get", "--raw", `/apis/metrics.k8s.io/v1beta1/namespaces/${ns}/pods`]));
    expect(metrics.items.length).toBeGreaterThan(0);
  }, 180_000);
});

describe("the test cluster's admission webhook", () => {
  it("labels, annotates and injects a sidecar into a Deployment in an opted-in namespace", async () => {
    const ns = await namespace({ [injectLabel[0]]: injectLabel[1] });
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "meshed", 1)));
    const live = await getJson(["-n", ns, "get", "deployment", "meshed"]);
    expect(live.metadata.labels[injected.label[0]]).toBe(injected.label[1]);
    expect(live.metadata.annotations[injected.annotation[0]]).toBe(injected.annotation[1]);
    expect(live.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(["app", injected.sidecar.name]);
    await rolledOut(ns, "meshed");
  });

  it("leaves Deployments in other namespaces alone", async () => {
    const ns = await namespace();
    await kubectl(["apply", "-f", "-"], JSON.stringify(deployment(ns, "plain", 1)));
    const live = await getJson(["-n", ns, "get", "deployment", "plain"]);
    expect(live.metadata.labels?.[injected.label[0]]).toBeUndefined();
    expect(live.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(["app"]);
  });

  it("defaults a Widget's spec.size on create, and keeps a size that is set", async () => {
    const ns = await namespace();
    const widget = (name: string, spec: Obj) => ({
      apiVersion: "test.undrift.dev/v1",
      kind: "Widget",
      metadata: { name, namespace: ns },
      spec,
    });
    await kubectl(["apply", "-f", "-"], JSON.stringify(widget("plain", { color: "blue" })));
    await kubectl(["apply", "-f", "-"], JSON.stringify(widget("large", { size: "large" })));
    // By its full name: tests that bring their own CRDs (revert-crd) serve other kinds named Widget, which they leave.
    expect((await getJson(["-n", ns, "get", "widgets.test.undrift.dev", "plain"])).spec).toEqual({
      color: "blue",
      size: injected.widgetSize,
    });
    expect((await getJson(["-n", ns, "get", "widgets.test.undrift.dev", "large"])).spec).toEqual({ size: "large" });
  });
});

describe("the test cluster's API surface", () => {
  it("serves at least 150 kinds, counted across every group in discovery", async () => {
    const lines = (await kubectl(["api-resources", "--no-headers", "-o", "wide"])).trim().split("\n");
    const kinds = new Set(
      lines.map((line) => {
        const columns = line.trim().split(/\s+/);
        // NAME [SHORTNAMES] APIVERSION NAMESPACED KIND VERBS [CATEGORIES]: APIVERSION is the column before true|false.
        const scope = columns.findIndex((c) => c === "true" || c === "false");
        return `${columns[scope - 1]?.split("/").slice(0, -1).join("/")}/${columns[scope + 1]}`;
      }),
    );
    expect(kinds.size).toBeGreaterThanOrEqual(150);
    expect(kinds).toContain("cert-manager.io/Certificate");
    expect(kinds).toContain("gateway.networking.k8s.io/HTTPRoute");
    expect(kinds).toContain("metrics.k8s.io/PodMetrics");
  });

  it("answers through the latency proxy exactly as it does directly", async () => {
    const config = parse(readFileSync(kubeconfigPath(), "utf8")) as Obj;
    const proxy = await startLatencyProxy({ target: config.clusters[0].cluster.server, rttMs: 50 });
    const slow = join(tmpdir(), `${uniqueName("kubeconfig-rtt")}.yaml`);
    try {
      writeKubeconfigFor(kubeconfigPath(), slow, proxy.url);
      const sha = (text: string) => createHash("sha256").update(text).digest("hex");
      const path = "/openapi/v3/apis/apps/v1";
      const direct = await kubectl(["get", "--raw", path]);
      const proxied = await kubectl(["--kubeconfig", slow, "get", "--raw", path]);
      // It went through the proxy (whose hold per direction is test/unit/scripts/latency-proxy.test.ts's).
      expect(proxy.connections).toBeGreaterThan(0);
      expect(proxied.length).toBe(direct.length);
      expect(sha(proxied)).toBe(sha(direct));
    } finally {
      rmSync(slow, { force: true });
      await proxy.close();
    }
  });
});
