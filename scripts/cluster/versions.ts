// The tools the test cluster and the renderers are built from, each pinned to a
// release on the Go module proxy. Bumping one rebuilds it on the next cluster:up.
// kube-controller-manager and kube-scheduler come from the same k8s.io/kubernetes
// release as kube-apiserver (tools/kube-controllers pins it in its go.mod too).
export const versions = {
  kubernetes: "v1.34.4",
  etcd: "v3.6.4",
  kwok: "v0.8.0",
  metricsServer: "v0.8.0",
  kustomize: "v5.8.2",
  helm: "v4.3.2",
  // promtool checks and unit-tests the chart's PrometheusRule alerts and the dashboard's queries (test/unit/chart/).
  prometheus: "v0.316.0",
  // The reconcilers whose objects `discover:` reads: their CRDs are installed by cluster:up (reconciler-crds.ts).
  fluxKustomizeController: "v1.10.1",
  fluxSourceController: "v1.10.1",
  argoCd: "v3.6.2",
} as const;
