// What a test needs to start undrift as the GitHub App in a child process: a
// throwaway App key (RSA, PKCS#1 as GitHub issues them) and a cluster registry
// whose one cluster nobody answers at, for tests of the process itself (probes,
// logs, the status page, the recorder) rather than its scans.
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

let key: string | undefined;

/** A private key for APP_ID/PRIVATE_KEY; made once per test file (RSA generation takes a moment). */
export function appPrivateKey(): string {
  key ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return key;
}

/** Writes `dir/clusters.yaml`: `cluster` for acme/gitops, its kubeconfig a closed port. Returns the registry's path. */
export async function unreachableRegistry(dir: string, cluster: string): Promise<string> {
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n" +
      "contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\nusers: [{name: u, user: {token: x}}]\n",
  );
  const registry = join(dir, "clusters.yaml");
  await writeFile(
    registry,
    `clusters:\n  ${cluster}:\n    kubeconfig: ${kubeconfig}\n    repositories: ["acme/gitops"]\n`,
  );
  return registry;
}
