// The ValidatingWebhookConfiguration that makes a cluster's API server tell
// undrift's admission recorder who writes what (`undrift attribution install`).
// Built so that it can never hurt the cluster: failurePolicy Ignore (undrift
// down, slow or wrong, and the write goes on), sideEffects None (dry runs are
// not sent), a short timeout, only CREATE/UPDATE/DELETE, and an objectSelector:
// only the objects undrift tracks are sent. The recorder always allows.
import { parseLabelSelector } from "../../config/parse-label-selector.ts";
import type { KubeObject } from "../../model/types.ts";

export const RECORDER_WEBHOOK_API = { group: "admissionregistration.k8s.io", version: "v1" } as const;

/** The configuration's name for `cluster`: one per cluster, so installing for one never touches another's. */
export function recorderWebhookName(cluster: string): string {
  return `undrift-recorder-${cluster}`;
}

/** The tracking selector (as targets spell it, parse-label-selector.ts) as the API's LabelSelector. */
export function labelSelectorOf(selector: string): {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
} {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: Array<{ key: string; operator: string; values?: string[] }> = [];
  for (const r of parseLabelSelector(selector)) {
    if (r.operator === "=") matchLabels[r.key] = r.value ?? "";
    else if (r.operator === "!=") matchExpressions.push({ key: r.key, operator: "NotIn", values: [r.value ?? ""] });
    else matchExpressions.push({ key: r.key, operator: r.operator === "exists" ? "Exists" : "DoesNotExist" });
  }
  return {
    ...(Object.keys(matchLabels).length > 0 ? { matchLabels } : {}),
    ...(matchExpressions.length > 0 ? { matchExpressions } : {}),
  };
}

export function recorderWebhook(params: {
  cluster: string;
  /** Where the API server reaches undrift's recorder: `https://host:port` (the path is added). */
  baseUrl: string;
  /** The cluster's URL token (recorder-token.ts). */
  token: string;
  /** The CA that signed the recorder's serving certificate, PEM. */
  caPem: string;
  /** The tracked objects' label selector. */
  selector: string;
  timeoutSeconds: number;
}): KubeObject {
  const url = `${params.baseUrl.replace(/\/+$/, "")}/attribution/admission/${encodeURIComponent(params.cluster)}/${params.token}`;
  const objectSelector = labelSelectorOf(params.selector);
  const webhook = {
    name: "recorder.attribution.undrift.dev",
    clientConfig: { url, caBundle: Buffer.from(params.caPem).toString("base64") },
    rules: [
      {
        apiGroups: ["*"],
        apiVersions: ["*"],
        // The object itself, and the subresources a person writes to (kubectl scale, set image through status is not).
        resources: ["*", "*/scale"],
        operations: ["CREATE", "UPDATE", "DELETE"],
        scope: "*",
      },
    ],
    objectSelector,
    failurePolicy: "Ignore",
    sideEffects: "None",
    timeoutSeconds: params.timeoutSeconds,
    admissionReviewVersions: ["v1"],
    matchPolicy: "Equivalent",
  };
  return {
    apiVersion: `${RECORDER_WEBHOOK_API.group}/${RECORDER_WEBHOOK_API.version}`,
    kind: "ValidatingWebhookConfiguration",
    metadata: {
      name: recorderWebhookName(params.cluster),
      labels: { "app.kubernetes.io/managed-by": "undrift" },
    },
    webhooks: [webhook],
  } as unknown as KubeObject;
}
