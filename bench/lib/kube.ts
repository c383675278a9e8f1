// The benchmark's own (untimed) talk to the cluster: server-side apply of the
// generated objects, the API server's request counter, and cleanup.
import { request } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { KubeApiError } from "../../src/live/errors.ts";
import type { KubeClient } from "../../src/live/kube-client.ts";
import { mapLimit } from "../../src/live/map-limit.ts";
import type { BenchObject, BenchRepo } from "./generate.ts";

export const fieldManager = "undrift";

const plural: Record<string, string> = {
  ConfigMap: "configmaps",
  Service: "services",
  Deployment: "deployments",
  Namespace: "namespaces",
};

function objectPath(o: BenchObject): string {
  const base = o.apiVersion === "v1" ? "/api/v1" : `/apis/${o.apiVersion}`;
  const ns = o.namespace ? `/namespaces/${o.namespace}` : "";
  return `${base}${ns}/${plural[o.kind]}/${o.name}`;
}

/** Like mapLimit, but the first error stops every lane, so nothing is still being created while the caller cleans up. */
async function eachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const settled = await Promise.allSettled(lanes);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
}

/** Server-side apply with field manager `undrift`, as a GitOps applier would; Namespaces first. */
export async function applyAll(client: KubeClient, repo: BenchRepo, concurrency = 16): Promise<void> {
  const apply = (o: BenchObject) =>
    client.send({
      method: "PATCH",
      path: objectPath(o),
      query: { fieldManager, force: true },
      body: o.manifest,
      contentType: "application/apply-patch+yaml",
    });
  await eachLimit(repo.namespaceObjects, concurrency, apply);
  await eachLimit(repo.objects, concurrency, apply);
}

/** Deletes every object the run created, then its namespaces (they stay Terminating: there is no namespace controller). */
export async function deleteAll(client: KubeClient, repo: BenchRepo): Promise<void> {
  const selector = `undrift.dev/target=${repo.target}`;
  const collections = [
    { base: "/api/v1", resource: "configmaps" },
    { base: "/api/v1", resource: "services" },
    { base: "/apis/apps/v1", resource: "deployments" },
  ];
  await mapLimit(
    repo.namespaces.flatMap((ns) => collections.map((c) => ({ ...c, ns }))),
    8,
    async ({ base, resource, ns }) => {
      const path = `${base}/namespaces/${ns}/${resource}`;
      try {
        await client.send({ method: "DELETE", path, query: { labelSelector: selector } });
      } catch (error) {
        if (!(error instanceof KubeApiError && error.status === 405)) throw error;
        // No deletecollection for this resource: one DELETE per object.
        const list = await client.send<{ items: Array<{ metadata: { name: string } }> }>({
          method: "GET",
          path,
          query: { labelSelector: selector },
        });
        await mapLimit(list.items, 8, (item) =>
          client.send({ method: "DELETE", path: `${path}/${item.metadata.name}` }),
        );
      }
    },
  );
  await mapLimit(repo.namespaces, 8, async (ns) => {
    try {
      await client.send({ method: "DELETE", path: `/api/v1/namespaces/${ns}` });
    } catch (error) {
      if (!(error instanceof KubeApiError && error.status === 404)) throw error;
    }
  });
}

/** Counts of objects the run left in its namespaces, to prove cleanup worked. */
export async function countLeft(client: KubeClient, repo: BenchRepo): Promise<number> {
  const selector = `undrift.dev/target=${repo.target}`;
  let left = 0;
  for (const path of ["/api/v1/configmaps", "/api/v1/services", "/apis/apps/v1/deployments"]) {
    const list = await client.send<{ items: unknown[] }>({ method: "GET", path, query: { labelSelector: selector } });
    left += list.items.length;
  }
  return left;
}

/** Series of `apiserver_request_total` that the API server makes on its own, on a timer, whoever else is talking. */
function isBackground(labels: string): boolean {
  return (
    /resource="leases",scope="resource"/.test(labels) || // its own identity and lease renewals
    /resource="endpoints",scope="resource"/.test(labels) || // the `kubernetes` Service endpoints reconciler
    /verb="WATCH"/.test(labels) // long-running watches that close on a timer
  );
}

export interface RequestCounts {
  /** Requests counted by the API server, without its own background series. */
  requests: number;
  /** Everything, background included. */
  raw: number;
}

/** The API server's /metrics text (as the kubeconfig's admin identity). */
async function scrapeMetrics(kc: KubeConfig): Promise<string> {
  const server = kc.getCurrentCluster()!.server.replace(/\/+$/, "");
  const options: import("node:https").RequestOptions = { method: "GET", headers: { accept: "text/plain" } };
  await kc.applyToHTTPSOptions(options);
  return new Promise<string>((resolve, reject) => {
    const req = request(new URL(`${server}/metrics`), options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        if ((res.statusCode ?? 0) >= 300) reject(new Error(`GET /metrics: ${res.statusCode}: ${body.slice(0, 200)}`));
        else resolve(body);
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Sums `apiserver_request_total` from the API server's /metrics (as the kubeconfig's admin identity). */
export async function scrapeRequestTotal(kc: KubeConfig): Promise<RequestCounts> {
  const text = await scrapeMetrics(kc);
  const counts: RequestCounts = { requests: 0, raw: 0 };
  for (const line of text.split("\n")) {
    const m = /^apiserver_request_total\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const value = Number(m[2]);
    counts.raw += value;
    if (!isBackground(m[1]!)) counts.requests += value;
  }
  return counts;
}

/**
 * `apiserver_request_total` by verb (LIST, GET, WATCH, PATCH, ...), without the server's own lease and endpoints
 * series; dry-runs apart, and requests for no resource (discovery, /metrics) as `GET (non-resource)`.
 */
export async function scrapeRequestsByVerb(kc: KubeConfig): Promise<Record<string, number>> {
  const text = await scrapeMetrics(kc);
  const byVerb: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^apiserver_request_total\{(.*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const labels = m[1]!;
    if (/resource="(leases|endpoints)",scope="resource"/.test(labels)) continue;
    const verb = /verb="([^"]*)"/.exec(labels)?.[1] ?? "?";
    const resource = /resource="([^"]*)"/.exec(labels)?.[1] ?? "";
    const dryRun = /dry_run="All"/.test(labels);
    const key = dryRun ? `${verb} (dry-run)` : resource ? verb : `${verb} (non-resource)`;
    byVerb[key] = (byVerb[key] ?? 0) + Number(m[2]);
  }
  return byVerb;
}

export function delta(before: RequestCounts, after: RequestCounts): RequestCounts {
  return { requests: after.requests - before.requests, raw: after.raw - before.raw };
}
