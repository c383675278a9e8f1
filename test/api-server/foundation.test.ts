// The ground the drift engine stands on: a real API server's server-side apply,
// field ownership, defaulting and dry-run; a real Redis for BullMQ; RBAC refusals.
import {
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  type V1Deployment,
} from "@kubernetes/client-node";
import { Queue, QueueEvents, Worker } from "bullmq";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { contexts, kubeconfigPath, uniqueName } from "../helpers/cluster.ts";

function api(context: string = contexts.admin): KubernetesObjectApi {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath());
  kc.setCurrentContext(context);
  return KubernetesObjectApi.makeApiClient(kc);
}

function apply<T extends KubernetesObject>(client: KubernetesObjectApi, object: T, manager: string, dryRun?: "All") {
  return client.patch(object, undefined, dryRun, manager, true, PatchStrategy.ServerSideApply);
}

function deployment(namespace: string): V1Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [
            {
              name: "web",
              image: "nginx:1.27",
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: "0.5" } },
            },
          ],
        },
      },
    },
  };
}

describe("the test cluster", () => {
  it("server-side applies with field manager undrift, defaults and normalizes what it stores", async () => {
    const client = api();
    const ns = uniqueName("smoke");
    await apply(client, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, "undrift");
    await apply(client, deployment(ns), "undrift");

    const live = await client.read<V1Deployment>({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: ns },
    });
    const container = live.spec?.template.spec?.containers[0];
    expect(container?.ports?.[0]?.protocol).toBe("TCP");
    expect(container?.imagePullPolicy).toBe("IfNotPresent");
    expect(container?.resources?.requests?.cpu).toBe("500m");
    // undrift owns everything it applied; the deployment controller may already own the status it wrote.
    const managers = live.metadata?.managedFields ?? [];
    expect(managers.filter((m) => m.subresource !== "status").map((m) => [m.manager, m.operation])).toEqual([
      ["undrift", "Apply"],
    ]);
    for (const m of managers.filter((m) => m.subresource === "status"))
      expect(m.manager).toBe("kube-controller-manager");
  });

  it("lists both managers when a second one changes a field", async () => {
    const client = api();
    const ns = uniqueName("smoke");
    await apply(client, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, "undrift");
    await apply(client, deployment(ns), "undrift");
    const scaled = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: ns },
      spec: { replicas: 5 },
    };
    await apply(client, scaled, "hpa-like");

    const live = await client.read<V1Deployment>({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: ns },
    });
    expect(live.spec?.replicas).toBe(5);
    // The deployment controller writes status under its own manager; the spec has the two appliers.
    const specManagers = live.metadata?.managedFields?.filter((m) => m.subresource !== "status").map((m) => m.manager);
    expect(specManagers?.sort()).toEqual(["hpa-like", "undrift"]);
  });

  it("answers a dry-run apply with the would-be object and changes nothing", async () => {
    const client = api();
    const ns = uniqueName("smoke");
    await apply(client, { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } }, "undrift");
    const before = await apply(client, deployment(ns), "undrift");
    const changed = deployment(ns);
    changed.spec!.replicas = 7;

    const wouldBe = await apply(client, changed, "undrift", "All");
    expect(wouldBe.spec?.replicas).toBe(7);

    const after = await client.read<V1Deployment>({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: ns },
    });
    expect(after.spec?.replicas).toBe(2);
    // The deployment controller keeps writing status (a new resourceVersion); a real
    // write of the spec would have raised the generation, which the dry-run left alone.
    expect(after.metadata?.generation).toBe(before.metadata?.generation);
    expect(after.metadata?.managedFields?.find((m) => m.manager === "undrift")?.time).toEqual(
      before.metadata?.managedFields?.find((m) => m.manager === "undrift")?.time,
    );
  });

  it("refuses a write by the read-only identity with 403", async () => {
    const reader = api(contexts.reader);
    const attempt = reader.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: uniqueName("denied") } });
    await expect(attempt).rejects.toMatchObject({ code: 403 });
  });
});

describe("Redis", () => {
  it("carries a BullMQ job from a queue to a worker and back", async () => {
    const connection = { url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", maxRetriesPerRequest: null };
    const name = uniqueName("smoke-queue");
    const redis = new Redis(connection.url, { maxRetriesPerRequest: null });
    const queue = new Queue(name, { connection: redis });
    const events = new QueueEvents(name, { connection: redis.duplicate() });
    const worker = new Worker(name, async (job) => ({ echoed: job.data.target }), { connection: redis.duplicate() });
    try {
      await events.waitUntilReady();
      const job = await queue.add("scan", { target: "infra" });
      expect(await job.waitUntilFinished(events, 10_000)).toEqual({ echoed: "infra" });
    } finally {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await redis.quit();
    }
  });
});
