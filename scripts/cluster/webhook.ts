// Registers webhook-server.ts with the API server: the Widget CRD whose field it
// defaults, and the MutatingWebhookConfiguration that sends it opted-in objects.
import type { ClusterObject } from "./api.ts";

/** Label that opts a namespace into the sidecar webhook, as istio-injection=enabled does. */
export const injectLabel = ["undrift-test/inject", "enabled"] as const;

export const widgetCrd: ClusterObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.test.undrift.dev" },
  spec: {
    group: "test.undrift.dev",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { size: { type: "string" }, color: { type: "string" } },
              },
              status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          },
        },
      },
    ],
  },
};

export function webhookConfiguration(port: number, caBundle: string): ClusterObject {
  const common = {
    admissionReviewVersions: ["v1"],
    sideEffects: "None",
    failurePolicy: "Fail",
    timeoutSeconds: 5,
    reinvocationPolicy: "IfNeeded",
  };
  const url = (path: string) => ({ url: `https://127.0.0.1:${port}${path}`, caBundle });
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "MutatingWebhookConfiguration",
    metadata: { name: "undrift-test" },
    webhooks: [
      {
        ...common,
        name: "inject.undrift-test.dev",
        clientConfig: url("/mutate-deployment"),
        namespaceSelector: { matchLabels: { [injectLabel[0]]: injectLabel[1] } },
        rules: [
          { apiGroups: ["apps"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["deployments"] },
        ],
      },
      {
        ...common,
        name: "widget-defaults.undrift-test.dev",
        clientConfig: url("/default-widget"),
        rules: [
          { apiGroups: ["test.undrift.dev"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["widgets"] },
        ],
      },
    ],
  };
}
