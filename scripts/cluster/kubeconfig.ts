// The kubeconfigs that cluster:up writes: the one it hands out (one cluster, two
// identities) and one per component, each with its own token.
import { readFileSync, writeFileSync } from "node:fs";
import { parse, stringify } from "yaml";
import type { Pki } from "./pki.ts";

/** Context names: `admin` (the default) and `reader` (read-only, no Secrets). */
export const contexts = { admin: "undrift-test", reader: "undrift-test-reader" } as const;

export function writeKubeconfig(path: string, server: string, pki: Pki): void {
  const ca = readFileSync(pki.caCert).toString("base64");
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "undrift-test", cluster: { server, "certificate-authority-data": ca } }],
    users: [
      { name: "admin", user: { token: pki.adminToken } },
      { name: "reader", user: { token: pki.readerToken } },
    ],
    contexts: [
      { name: contexts.admin, context: { cluster: "undrift-test", user: "admin" } },
      { name: contexts.reader, context: { cluster: "undrift-test", user: "reader" } },
    ],
    "current-context": contexts.admin,
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
}

/** A single-identity kubeconfig for a component such as kube-controller-manager. */
export function writeComponentKubeconfig(path: string, server: string, caCert: string, token: string): void {
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "undrift-test", cluster: { server, "certificate-authority": caCert } }],
    users: [{ name: "component", user: { token } }],
    contexts: [{ name: "component", context: { cluster: "undrift-test", user: "component" } }],
    "current-context": "component",
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
}

/** Copies kubeconfig `from` to `to` with every cluster's server replaced, e.g. by a latency proxy's address. */
export function writeKubeconfigFor(from: string, to: string, server: string): void {
  const config = parse(readFileSync(from, "utf8")) as { clusters: Array<{ cluster: { server: string } }> };
  for (const entry of config.clusters) entry.cluster.server = server;
  writeFileSync(to, stringify(config), { mode: 0o600 });
}
