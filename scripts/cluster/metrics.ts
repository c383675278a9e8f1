// metrics-server behind the aggregator: its identity's RBAC, the Service and the
// APIService that route v1beta1.metrics.k8s.io to it, and its flags.
//
// There is no kube-proxy, so the aggregator cannot dial a ClusterIP, and
// --enable-aggregator-routing would dial the Service's endpoints, which the API
// refuses to hold a loopback address for (Endpoints and EndpointSlices reject
// 127.0.0.0/8). An ExternalName Service is resolved by the aggregator to its
// host name and the APIService's port, so it points at "localhost" and the port
// metrics-server listens on; the aggregator still checks the serving certificate
// against metrics-server.kube-system.svc (pki.ts puts that name in it).
import type { ClusterObject } from "./api.ts";
import { identities } from "./pki.ts";

const user = identities.metricsServer.user;
const subject = [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: user }];
const rbac = "rbac.authorization.k8s.io/v1";

export function metricsObjects(port: number, caBundle: string): ClusterObject[] {
  return [
    {
      apiVersion: rbac,
      kind: "ClusterRole",
      metadata: { name: "system:metrics-server" },
      rules: [
        { apiGroups: [""], resources: ["nodes/metrics"], verbs: ["get"] },
        { apiGroups: [""], resources: ["pods", "nodes"], verbs: ["get", "list", "watch"] },
      ],
    },
    {
      apiVersion: rbac,
      kind: "ClusterRoleBinding",
      metadata: { name: "system:metrics-server" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:metrics-server" },
      subjects: subject,
    },
    {
      apiVersion: rbac,
      kind: "ClusterRoleBinding",
      metadata: { name: "metrics-server:system:auth-delegator" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:auth-delegator" },
      subjects: subject,
    },
    {
      apiVersion: rbac,
      kind: "RoleBinding",
      metadata: { name: "metrics-server-auth-reader", namespace: "kube-system" },
      roleRef: {
        apiGroup: "rbac.authorization.k8s.io",
        kind: "Role",
        name: "extension-apiserver-authentication-reader",
      },
      subjects: subject,
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "metrics-server", namespace: "kube-system" },
      spec: { type: "ExternalName", externalName: "localhost", ports: [{ name: "https", port, protocol: "TCP" }] },
    },
    {
      apiVersion: "apiregistration.k8s.io/v1",
      kind: "APIService",
      metadata: { name: "v1beta1.metrics.k8s.io" },
      spec: {
        group: "metrics.k8s.io",
        version: "v1beta1",
        service: { name: "metrics-server", namespace: "kube-system", port },
        caBundle,
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    },
  ];
}

export function metricsServerArgs(p: { kubeconfig: string; port: number; cert: string; key: string }): string[] {
  return [
    `--kubeconfig=${p.kubeconfig}`,
    `--authentication-kubeconfig=${p.kubeconfig}`,
    `--authorization-kubeconfig=${p.kubeconfig}`,
    `--secure-port=${p.port}`,
    "--bind-address=127.0.0.1",
    `--tls-cert-file=${p.cert}`,
    `--tls-private-key-file=${p.key}`,
    // kwok serves every fake node's kubelet endpoint on 127.0.0.1, at the port in the node's status.
    "--kubelet-preferred-address-types=InternalIP",
    "--kubelet-use-node-status-port",
    "--kubelet-insecure-tls",
    "--metric-resolution=15s",
  ];
}
