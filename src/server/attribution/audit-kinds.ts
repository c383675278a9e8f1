// The kind of an audit event's object. An event names its object by resource
// (`configmaps`), records are kept by kind (`ConfigMap`, as the report names
// it). Kubernetes' own resources are fixed by its API and listed here, so most
// events need nothing else; any other resource (a CRD's) is looked up in the
// cluster's own discovery, through the registry's credentials for it, at most
// once a minute per cluster, and a resource it still does not serve is left
// unrecorded, never guessed.
//
//   const kinds = auditKinds({ discover: (cluster) => ... });
//   await kinds.learn("prod", [{ group: "example.com", resource: "widgets" }]);
//   kinds.kindOf("prod", "example.com", "widgets"); // "Widget"

const BUILT_IN: Record<string, Record<string, string>> = {
  "": {
    configmaps: "ConfigMap",
    secrets: "Secret",
    services: "Service",
    serviceaccounts: "ServiceAccount",
    pods: "Pod",
    namespaces: "Namespace",
    persistentvolumeclaims: "PersistentVolumeClaim",
    persistentvolumes: "PersistentVolume",
    endpoints: "Endpoints",
    limitranges: "LimitRange",
    resourcequotas: "ResourceQuota",
    replicationcontrollers: "ReplicationController",
    podtemplates: "PodTemplate",
    nodes: "Node",
  },
  apps: {
    deployments: "Deployment",
    statefulsets: "StatefulSet",
    daemonsets: "DaemonSet",
    replicasets: "ReplicaSet",
    controllerrevisions: "ControllerRevision",
  },
  batch: { jobs: "Job", cronjobs: "CronJob" },
  autoscaling: { horizontalpodautoscalers: "HorizontalPodAutoscaler" },
  policy: { poddisruptionbudgets: "PodDisruptionBudget" },
  "networking.k8s.io": { ingresses: "Ingress", ingressclasses: "IngressClass", networkpolicies: "NetworkPolicy" },
  "rbac.authorization.k8s.io": {
    roles: "Role",
    rolebindings: "RoleBinding",
    clusterroles: "ClusterRole",
    clusterrolebindings: "ClusterRoleBinding",
  },
  "storage.k8s.io": { storageclasses: "StorageClass", csidrivers: "CSIDriver" },
  "scheduling.k8s.io": { priorityclasses: "PriorityClass" },
  "discovery.k8s.io": { endpointslices: "EndpointSlice" },
  "apiextensions.k8s.io": { customresourcedefinitions: "CustomResourceDefinition" },
  "apiregistration.k8s.io": { apiservices: "APIService" },
  "admissionregistration.k8s.io": {
    validatingwebhookconfigurations: "ValidatingWebhookConfiguration",
    mutatingwebhookconfigurations: "MutatingWebhookConfiguration",
  },
};

/** How long a discovery answer counts, and how soon after one the same cluster is asked again. */
const RELEARN_MS = 60_000;

export interface AuditKinds {
  /** The kind served as `group`/`resource`, when known now. */
  kindOf(cluster: string, group: string, resource: string): string | undefined;
  /** Asks the cluster's discovery when any of `wanted` is unknown (not more than once a minute); never rejects. */
  learn(cluster: string, wanted: ReadonlyArray<{ group: string; resource: string }>): Promise<void>;
}

export function auditKinds(params: {
  /** The cluster's resources, from its discovery; undefined when undrift has no way to ask it. */
  discover?: (cluster: string) => Promise<ReadonlyArray<{ group: string; resource: string; kind: string }>>;
  now?: () => number;
  /** Told once per failure streak: a discovery that failed. */
  onError?: (cluster: string, error: unknown) => void;
}): AuditKinds {
  const now = params.now ?? Date.now;
  const learned = new Map<string, { at: number; kinds: Map<string, string>; asking?: Promise<void> }>();
  const kindOf = (cluster: string, group: string, resource: string) =>
    BUILT_IN[group]?.[resource] ?? learned.get(cluster)?.kinds.get(`${group}/${resource}`);
  return {
    kindOf,
    async learn(cluster, wanted) {
      if (!params.discover || wanted.every((w) => kindOf(cluster, w.group, w.resource) !== undefined)) return;
      let entry = learned.get(cluster);
      if (entry?.asking) return entry.asking;
      if (entry && now() - entry.at < RELEARN_MS) return;
      entry ??= { at: 0, kinds: new Map() };
      learned.set(cluster, entry);
      const current = entry;
      current.at = now();
      current.asking = params.discover(cluster).then(
        (resources) => {
          current.kinds = new Map(resources.map((r) => [`${r.group}/${r.resource}`, r.kind]));
        },
        (error: unknown) => params.onError?.(cluster, error),
      );
      try {
        await current.asking;
      } finally {
        delete current.asking;
      }
    },
  };
}
