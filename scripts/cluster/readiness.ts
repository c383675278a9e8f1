// What cluster:up waits for before it says the cluster is ready: each component
// doing its job as a user would see it, not just its process being alive. A
// component that does not get there fails cluster:up with one line naming it.
import { readFileSync } from "node:fs";
import { request } from "node:https";
import { call, type Endpoint, get } from "./api.ts";
import { nodeNames } from "./kwok.ts";
import { type Component, exited, logTail } from "./processes.ts";

type Condition = { type: string; status: string };
type Conditioned = { status?: { conditions?: Condition[] } };
const isTrue = (object: Conditioned | undefined, type: string) =>
  object?.status?.conditions?.some((c) => c.type === type && c.status === "True") ?? false;

/** GET /healthz of a loopback component; `ca` checks its certificate, without one any (self-signed) certificate is taken. */
function healthz(port: number, ca?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/healthz",
        timeout: 3000,
        ...(ca ? { ca: readFileSync(ca) } : { rejectUnauthorized: false }),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

class NotReady extends Error {
  override name = "NotReady";
}

/** Polls `check` until it holds; fails naming `component` (and its log's tail) on timeout or when any process exits. */
async function waitFor(
  component: string,
  what: string,
  check: () => Promise<boolean>,
  components: Component[],
  seconds: number,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  const own = components.find((c) => c.name === component);
  while (Date.now() < deadline) {
    const dead = components.find(exited);
    if (dead)
      throw new NotReady(
        `${dead.name} exited (code ${dead.child.exitCode ?? dead.child.signalCode}); ${dead.log}: ${logTail(dead.log)}`,
      );
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const tail = own ? `; ${own.log}: ${logTail(own.log)}` : "";
  throw new NotReady(`${component} was not ready within ${seconds}s (${what})${tail}`);
}

export async function waitForApiserver(endpoint: Endpoint, components: Component[], seconds: number): Promise<void> {
  const ready = async () => {
    try {
      return (await call(endpoint, "GET", "/readyz")).status === 200;
    } catch {
      return false;
    }
  };
  await waitFor("kube-apiserver", "/readyz", ready, components, seconds);
}

export interface Ports {
  controllerManager: number;
  scheduler: number;
  webhook: number;
  /** Names of the CRDs that must be Established. */
  crds: string[];
}

export async function waitForComponents(endpoint: Endpoint, components: Component[], p: Ports): Promise<void> {
  const seconds = 180;
  const wait = (component: string, what: string, check: () => Promise<boolean>) =>
    waitFor(component, what, check, components, seconds);
  await Promise.all([
    wait("kube-controller-manager", "/healthz, and the default ServiceAccount in namespace default", async () => {
      if (!(await healthz(p.controllerManager))) return false;
      return (await get(endpoint, "/api/v1/namespaces/default/serviceaccounts/default")) !== undefined;
    }),
    wait("kube-scheduler", "/healthz", () => healthz(p.scheduler)),
    wait("kwok", `nodes ${nodeNames.join(", ")} Ready`, async () => {
      const nodes = await get<{ items: Array<Conditioned & { metadata: { name: string } }> }>(
        endpoint,
        "/api/v1/nodes",
      );
      return nodeNames.every((name) =>
        isTrue(
          nodes?.items.find((n) => n.metadata.name === name),
          "Ready",
        ),
      );
    }),
    wait("webhook", "/healthz", () => healthz(p.webhook, endpoint.caCert)),
    wait("metrics-server", "APIService v1beta1.metrics.k8s.io Available", async () =>
      isTrue(await get(endpoint, "/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io"), "Available"),
    ),
    wait("kube-apiserver", `${p.crds.length} CRDs Established`, async () => {
      const list = await get<{ items: Array<Conditioned & { metadata: { name: string } }> }>(
        endpoint,
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      );
      const established = new Set(list?.items.filter((c) => isTrue(c, "Established")).map((c) => c.metadata.name));
      return p.crds.every((name) => established.has(name));
    }),
  ]);
}
