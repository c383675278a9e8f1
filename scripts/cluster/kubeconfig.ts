// The kubeconfig that cluster:up hands out: one cluster, two identities.
import { readFileSync, writeFileSync } from "node:fs";
import { stringify } from "yaml";
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
