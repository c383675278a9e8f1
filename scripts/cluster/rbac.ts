// Grants the read-only identity get/list/watch on everything but Secrets.
// The bootstrap `view` role would do, but it is filled in by the aggregation
// controller in kube-controller-manager, which the test cluster does not run.
import { readerUser } from "./pki.ts";

const coreResources = [
  "configmaps",
  "endpoints",
  "events",
  "limitranges",
  "namespaces",
  "nodes",
  "persistentvolumeclaims",
  "persistentvolumes",
  "pods",
  "podtemplates",
  "replicationcontrollers",
  "resourcequotas",
  "serviceaccounts",
  "services",
];
const groups = [
  "admissionregistration.k8s.io",
  "apiextensions.k8s.io",
  "apps",
  "autoscaling",
  "batch",
  "coordination.k8s.io",
  "discovery.k8s.io",
  "networking.k8s.io",
  "policy",
  "rbac.authorization.k8s.io",
  "scheduling.k8s.io",
  "storage.k8s.io",
];
const read = ["get", "list", "watch"];

export const readerRbac = [
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: readerUser },
    rules: [
      { apiGroups: [""], resources: coreResources, verbs: read },
      { apiGroups: groups, resources: ["*"], verbs: read },
    ],
  },
  {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: readerUser },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: readerUser },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: readerUser }],
  },
];
