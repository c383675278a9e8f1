// Helpers for tests against the loopback test cluster that test/setup/cluster.ts starts.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import { promisify } from "node:util";
import { inject } from "vitest";
import { stringify } from "yaml";
import type { AuditWebhook } from "../../scripts/cluster/audit.ts";
import { contexts } from "../../scripts/cluster/kubeconfig.ts";
import { KubeClient } from "../../src/live/kube-client.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";

export { contexts };

/** Path of the test cluster's kubeconfig (admin is the current context). */
export function kubeconfigPath(): string {
  return inject("kubeconfig");
}

/** Where the test cluster's kube-apiserver posts its audit events (scripts/cluster/audit.ts). */
export function auditWebhook(): AuditWebhook {
  const webhook = inject("auditWebhook");
  if (!webhook)
    throw new Error(
      "the test cluster was started before it had an audit webhook: restart it (npm run cluster:down, then cluster:up)",
    );
  return webhook;
}

/** A client for the admin identity, or the read-only one. */
export function client(identity: "admin" | "reader" = "admin"): KubeClient {
  return new KubeClient(loadKubeconfig({ kubeconfig: kubeconfigPath(), context: contexts[identity] }));
}

/** A name no other test uses, for namespaces and targets: tests run in parallel against one cluster. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

const run = promisify(execFile);

/** kubectl as an outside client, the way a person makes drift. Returns stdout. */
export async function kubectl(args: string[], input?: string): Promise<string> {
  const child = run("kubectl", ["--kubeconfig", kubeconfigPath(), ...args], { maxBuffer: 64 << 20 });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  const { stdout } = await child;
  return stdout;
}

/** A loopback port that was just closed: nothing answers there. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

/** A kubeconfig (YAML text) for a cluster that is not there: a loopback port that was just closed. */
export async function closedPortKubeconfig(): Promise<string> {
  const port = await closedPort();
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "down", cluster: { server: `https://127.0.0.1:${port}`, "insecure-skip-tls-verify": true } }],
    users: [{ name: "u", user: { token: "not-a-real-token" } }],
    contexts: [{ name: "down", context: { cluster: "down", user: "u" } }],
    "current-context": "down",
  });
}

/** ` (context admin, server https://127.0.0.1:...)`: what a text header must name, read from the test kubeconfig itself. */
export function clusterWhereOf(kubeconfig = kubeconfigPath()): string {
  const kc = loadKubeconfig({ kubeconfig });
  return ` (context ${kc.getCurrentContext()}, server ${kc.getCurrentCluster()!.server})`;
}
