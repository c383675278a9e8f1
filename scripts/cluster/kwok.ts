// kwok plays the kubelets: it makes the fake nodes Ready, moves pods the scheduler
// placed on them through their lifecycle, and serves each node's /metrics/resource
// from simulated usage, which metrics-server scrapes for the HPA.
//
// Stages follow kwokctl's default ("fast") set: nodes become Ready at once, pods
// become Running and Ready at once, Job pods complete, deleted pods go away.
//
// Keeping a pod unready (e.g. to test `revert --wait` against a rollout that cannot
// become Available): give the pod template the annotation
//   undrift-test/unready: "true"
// and kwok runs the pod with its Ready and ContainersReady conditions False
// (reason ReadinessProbeFailed), as a kubelet does for a failing readiness probe.
// Simulated CPU and memory usage: annotate the pod template with
// kwok.x-k8s.io/usage-cpu: 500m and kwok.x-k8s.io/usage-memory: 64Mi (defaults 1m, 1Mi).
import { stringify } from "yaml";
import type { ClusterObject } from "./api.ts";

/** The annotation that keeps a pod Running but never Ready. */
export const unreadyAnnotation = "undrift-test/unready";

/** The fake nodes cluster:up creates. */
export const nodeNames = ["kwok-node-1", "kwok-node-2"];

const nodeSelector = "kwok.x-k8s.io/node=fake";

function stage(name: string, kind: "Node" | "Pod", selector: unknown[], next: Record<string, unknown>) {
  return {
    apiVersion: "kwok.x-k8s.io/v1alpha1",
    kind: "Stage",
    metadata: { name },
    spec: { resourceRef: { apiGroup: "v1", kind }, selector: { matchExpressions: selector }, next },
  };
}

const notDeleted = { key: ".metadata.deletionTimestamp", operator: "DoesNotExist" };
const notReady = {
  key: '.status.conditions.[] | select( .type == "Ready" ) | .status',
  operator: "NotIn",
  values: ["True"],
};
const unready = { key: `.metadata.annotations["${unreadyAnnotation}"]` };

const nodeStatus = `
{{ $now := Now }}
conditions:
{{ range NodeConditions }}
- lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
  message: {{ .message | Quote }}
  reason: {{ .reason | Quote }}
  status: {{ .status | Quote }}
  type: {{ .type | Quote }}
{{ end }}
addresses:
- address: {{ NodeIP | Quote }}
  type: InternalIP
- address: {{ .metadata.name | Quote }}
  type: Hostname
{{ with NodePort }}
daemonEndpoints:
  kubeletEndpoint:
    Port: {{ . }}
{{ end }}
nodeInfo:
  architecture: amd64
  operatingSystem: linux
  kubeletVersion: {{ printf "kwok-%s" Version | Quote }}
  kubeProxyVersion: {{ printf "kwok-%s" Version | Quote }}
  containerRuntimeVersion: {{ printf "kwok-%s" Version | Quote }}
phase: Running
`;

/** Status of a running pod whose containers report `ready`; Ready follows them. */
function podStatus(ready: boolean): string {
  const status = ready ? '"True"' : '"False"';
  const reason = ready ? "" : "\n  reason: ReadinessProbeFailed\n  message: containers with unready status";
  return `
{{ $now := Now }}
conditions:
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: Initialized
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: PodScheduled
- lastTransitionTime: {{ $now | Quote }}
  status: ${status}
  type: Ready${reason}
- lastTransitionTime: {{ $now | Quote }}
  status: ${status}
  type: ContainersReady${reason}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: ${ready}
  started: true
  restartCount: 0
  state:
    running:
      startedAt: {{ $now | Quote }}
{{ end }}
initContainerStatuses:
{{ range .spec.initContainers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: true
  restartCount: 0
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $now | Quote }}
      finishedAt: {{ $now | Quote }}
{{ end }}
{{ with NodeIPsWith .spec.nodeName }}
hostIP: {{ index . 0 | Quote }}
hostIPs:
{{ range . }}
- ip: {{ . | Quote }}
{{ end }}
{{ end }}
{{ with PodIPsWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) }}
podIP: {{ index . 0 | Quote }}
podIPs:
{{ range . }}
- ip: {{ . | Quote }}
{{ end }}
{{ end }}
phase: Running
startTime: {{ $now | Quote }}
`;
}

const podComplete = `
{{ $now := Now }}
conditions:
- lastTransitionTime: {{ $now | Quote }}
  status: "False"
  type: Ready
  reason: PodCompleted
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: false
  started: false
  restartCount: 0
  state:
    terminated:
      exitCode: 0
      reason: Completed
      startedAt: {{ $now | Quote }}
      finishedAt: {{ $now | Quote }}
{{ end }}
phase: Succeeded
`;

function metric(name: string, dimension: string, kind: string, value: string) {
  const labels = {
    node: [],
    pod: [
      { name: "namespace", value: "pod.metadata.namespace" },
      { name: "pod", value: "pod.metadata.name" },
    ],
    container: [
      { name: "container", value: "container.name" },
      { name: "namespace", value: "pod.metadata.namespace" },
      { name: "pod", value: "pod.metadata.name" },
    ],
  }[dimension];
  return { name, dimension, kind, help: name, labels, value };
}

/** kwok's --config: its stages, the kubelet resource-metrics endpoint, and usage read from pod annotations. */
export function kwokConfig(): string {
  const running = { key: ".status.phase", operator: "In", values: ["Running"] };
  const pending = { key: ".status.phase", operator: "In", values: ["Pending"] };
  const documents = [
    stage("node-initialize", "Node", [notReady], { statusTemplate: nodeStatus }),
    stage("pod-ready", "Pod", [notDeleted, pending, notReady, { ...unready, operator: "DoesNotExist" }], {
      statusTemplate: podStatus(true),
    }),
    stage("pod-unready", "Pod", [notDeleted, pending, { ...unready, operator: "Exists" }], {
      statusTemplate: podStatus(false),
    }),
    stage(
      "pod-complete",
      "Pod",
      [notDeleted, running, { key: ".metadata.ownerReferences.[].kind", operator: "In", values: ["Job"] }],
      { statusTemplate: podComplete },
    ),
    stage("pod-delete", "Pod", [{ key: ".metadata.deletionTimestamp", operator: "Exists" }], { delete: true }),
    {
      apiVersion: "kwok.x-k8s.io/v1alpha1",
      kind: "Metric",
      metadata: { name: "metrics-resource" },
      spec: {
        path: "/metrics/nodes/{nodeName}/metrics/resource",
        metrics: [
          metric("scrape_error", "node", "gauge", "0"),
          metric("node_cpu_usage_seconds_total", "node", "counter", 'node.CumulativeUsage("cpu")'),
          metric("node_memory_working_set_bytes", "node", "gauge", 'node.Usage("memory")'),
          metric("pod_cpu_usage_seconds_total", "pod", "counter", 'pod.CumulativeUsage("cpu")'),
          metric("pod_memory_working_set_bytes", "pod", "gauge", 'pod.Usage("memory")'),
          metric("container_start_time_seconds", "container", "gauge", "pod.SinceSecond()"),
          metric(
            "container_cpu_usage_seconds_total",
            "container",
            "counter",
            'pod.CumulativeUsage("cpu", container.name)',
          ),
          metric("container_memory_working_set_bytes", "container", "gauge", 'pod.Usage("memory", container.name)'),
        ],
      },
    },
    {
      apiVersion: "kwok.x-k8s.io/v1alpha1",
      kind: "ClusterResourceUsage",
      metadata: { name: "usage-from-annotation" },
      spec: {
        usages: [
          {
            usage: {
              cpu: { expression: annotationQuantity("kwok.x-k8s.io/usage-cpu", "1m") },
              memory: { expression: annotationQuantity("kwok.x-k8s.io/usage-memory", "1Mi") },
            },
          },
        ],
      },
    },
  ];
  return documents.map((doc) => stringify(doc)).join("---\n");
}

function annotationQuantity(annotation: string, fallback: string): string {
  return `"${annotation}" in pod.metadata.annotations ? Quantity(pod.metadata.annotations["${annotation}"]) : Quantity("${fallback}")`;
}

/** kwok's flags: manage the annotated nodes, serve their kubelet endpoint on `port`. */
export function kwokArgs(p: { kubeconfig: string; config: string; port: number; cert: string; key: string }): string[] {
  return [
    `--kubeconfig=${p.kubeconfig}`,
    `--config=${p.config}`,
    `--manage-nodes-with-annotation-selector=${nodeSelector}`,
    "--node-ip=127.0.0.1",
    `--node-port=${p.port}`,
    `--server-address=127.0.0.1:${p.port}`,
    `--tls-cert-file=${p.cert}`,
    `--tls-private-key-file=${p.key}`,
    "--cidr=10.244.0.1/16",
    "--node-lease-duration-seconds=40",
  ];
}

/** The fake nodes: schedulable, no taints, with room for many pods. */
export function kwokNodes(): ClusterObject[] {
  return nodeNames.map((name) => fakeNode(name));
}

/**
 * The label and taint key of a node that belongs to one namespace. Pods of another run can fill the shared
 * nodes (110 pods each, as a kubelet holds); a test whose pods must run gets a node of its own instead
 * (test/helpers/own-node.ts). Its taint keeps every other pod off it, and the namespace's annotations, read
 * by the PodNodeSelector and PodTolerationRestriction admission plugins (cluster.ts enables them), put the
 * namespace's pods on it alone, with no change to the manifests Git declares.
 */
export const ownNodeKey = "undrift.test/namespace";

/** Name of the node that belongs to `namespace`. */
export function ownNodeName(namespace: string): string {
  return `kwok-${namespace}`;
}

/**
 * The node of one namespace, owned by it: the garbage collector deletes the node once the namespace is gone,
 * after the namespace controller (and kwok, on this node) has deleted its pods.
 */
export function ownNode(namespace: { name: string; uid: string }): ClusterObject {
  const node = fakeNode(ownNodeName(namespace.name), { [ownNodeKey]: namespace.name });
  node.metadata.ownerReferences = [{ apiVersion: "v1", kind: "Namespace", name: namespace.name, uid: namespace.uid }];
  node.spec = { taints: [{ key: ownNodeKey, value: namespace.name, effect: "NoSchedule" }] };
  return node;
}

/** The annotations that send a namespace's pods to its own node, and only there. */
export function ownNodeAnnotations(namespace: string): Record<string, string> {
  return {
    "scheduler.alpha.kubernetes.io/node-selector": `${ownNodeKey}=${namespace}`,
    "scheduler.alpha.kubernetes.io/defaultTolerations": JSON.stringify([
      { key: ownNodeKey, operator: "Equal", value: namespace, effect: "NoSchedule" },
    ]),
  };
}

/** A node kwok manages (its annotation), with room for many pods and resource metrics at kwok's endpoint. */
function fakeNode(name: string, labels: Record<string, string> = {}): ClusterObject {
  const resources = { cpu: "32", memory: "256Gi", pods: "110", "ephemeral-storage": "1Ti" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        type: "kwok",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "node-role.kubernetes.io/worker": "",
        ...labels,
      },
      annotations: {
        "kwok.x-k8s.io/node": "fake",
        "node.alpha.kubernetes.io/ttl": "0",
        "metrics.k8s.io/resource-metrics-path": `/metrics/nodes/${name}/metrics/resource`,
      },
    },
    status: { allocatable: resources, capacity: resources },
  };
}
