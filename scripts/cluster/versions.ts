// The tools the test cluster and the renderers are built from, each pinned to a
// release on the Go module proxy. Bumping one rebuilds it on the next cluster:up.
export const versions = {
  kubernetes: "v1.34.4",
  etcd: "v3.6.4",
  kustomize: "v5.8.2",
  helm: "v4.3.2",
} as const;
