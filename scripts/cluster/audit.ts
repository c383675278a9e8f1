// The test cluster's audit log, sent the way a self-managed cluster sends it to
// undrift (README "Connecting a self-managed cluster"): kube-apiserver's
// webhook backend in batch mode, posting over https (client-go sends a bearer
// token over TLS only) to a fixed loopback port chosen at cluster:up, where a
// test's web process serves its HTTPS port (UNDRIFT_RECORDER_PORT, with the
// cluster's component certificate) as the registry's cluster `test`, with a
// token of its own. Batch mode buffers and retries apart from
// requests, so while nothing listens there (most of the time) the cluster
// works as before. The policy keeps reads, events, leases and the kubelets'
// status churn out; Secrets and ConfigMaps outside the system namespaces are
// sent at RequestResponse, bodies and all, so the test that undrift drops
// them on arrival (a canary Secret) is real; every other write at Metadata.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";

/** The registry name the audit webhook posts as: its URL's last segment. */
export const AUDIT_CLUSTER = "test";

export interface AuditWebhook {
  /** The loopback port kube-apiserver posts to (https://127.0.0.1:<port>/attribution/audit/test). */
  port: number;
  /** The serving certificate and key for 127.0.0.1 the receiver uses, and the CA the apiserver checks it with. */
  certFile: string;
  keyFile: string;
  caCert: string;
  /** The bearer token it presents, in a file (the registry's `audit.token: {file}`). */
  tokenFile: string;
  cluster: string;
}

export const auditPolicy = {
  apiVersion: "audit.k8s.io/v1",
  kind: "Policy",
  // A write is told once, when its answer is complete.
  omitStages: ["RequestReceived"],
  rules: [
    { level: "None", verbs: ["get", "list", "watch"] },
    {
      level: "None",
      resources: [
        { group: "", resources: ["events", "nodes/status", "pods/status"] },
        { group: "events.k8s.io", resources: ["events"] },
        { group: "coordination.k8s.io", resources: ["leases"] },
      ],
    },
    { level: "None", nonResourceURLs: ["*"] },
    {
      level: "Metadata",
      namespaces: ["kube-system", "kube-public", "kube-node-lease"],
      resources: [{ group: "", resources: ["secrets", "configmaps"] }],
    },
    { level: "RequestResponse", resources: [{ group: "", resources: ["secrets", "configmaps"] }] },
    { level: "Metadata" },
  ],
};

/** Writes the policy, the webhook's kubeconfig and its token under `dir`; returns kube-apiserver's flags. */
export function auditFiles(
  dir: string,
  port: number,
  serving: { certFile: string; keyFile: string; caCert: string },
): { webhook: AuditWebhook; args: string[] } {
  const tokenFile = join(dir, "audit-webhook.token");
  const token = randomBytes(32).toString("hex");
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const policyFile = join(dir, "audit-policy.yaml");
  writeFileSync(policyFile, stringify(auditPolicy));
  const configFile = join(dir, "audit-webhook.kubeconfig");
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name: "undrift",
        cluster: {
          server: `https://127.0.0.1:${port}/attribution/audit/${AUDIT_CLUSTER}`,
          "certificate-authority": serving.caCert,
        },
      },
    ],
    users: [{ name: "kube-apiserver", user: { token } }],
    contexts: [{ name: "undrift", context: { cluster: "undrift", user: "kube-apiserver" } }],
    "current-context": "undrift",
  };
  writeFileSync(configFile, stringify(config), { mode: 0o600 });
  return {
    webhook: { port, tokenFile, cluster: AUDIT_CLUSTER, ...serving },
    args: [
      `--audit-policy-file=${policyFile}`,
      `--audit-webhook-config-file=${configFile}`,
      "--audit-webhook-mode=batch",
      "--audit-webhook-batch-max-wait=1s",
      // Batches under 10 MiB and bodies of events over 100 KiB dropped by the apiserver itself.
      "--audit-webhook-truncate-enabled=true",
      // A receiver that is down is retried after a second, not ten: the tests start one after the cluster.
      "--audit-webhook-initial-backoff=1s",
    ],
  };
}
