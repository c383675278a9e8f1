// Vitest global setup: make sure the loopback test cluster runs, so `npm test`
// needs nothing started by hand. A cluster this setup started is stopped at the
// end (only if it is still the one it started); one that was already running
// (npm run cluster:up) is left alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import type { AuditWebhook } from "../../scripts/cluster/audit.ts";
import { down, up } from "../../scripts/cluster/cluster.ts";

declare module "vitest" {
  export interface ProvidedContext {
    kubeconfig: string;
    /** Where the cluster's kube-apiserver posts audit events; null for a cluster started before it did. */
    auditWebhook: AuditWebhook | null;
  }
}

export default async function setup(project: TestProject) {
  const { kubeconfig, owner, auditWebhook } = await up();
  project.provide("kubeconfig", kubeconfig);
  project.provide("auditWebhook", auditWebhook ?? null);
  // Discovery cached for this run only (the test files and the CLIs they start inherit it), never in the user's home.
  const discoveryCache = mkdtempSync(join(tmpdir(), "undrift-test-discovery-"));
  process.env.UNDRIFT_DISCOVERY_CACHE = discoveryCache;
  return async () => {
    rmSync(discoveryCache, { recursive: true, force: true });
    if (owner && !process.env.UNDRIFT_KEEP_CLUSTER) await down({ owner });
  };
}
