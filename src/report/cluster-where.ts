// Which kubeconfig context and API server a command talked to, for the summary
// line of its text output: a person with several kubeconfigs should see at a
// glance that a scan, revert or preview ran against the cluster they meant, as
// `flux diff` and kubectl's verbose mode let them see. The server's URL only,
// never a credential of the kubeconfig.

/** The context and server of the kubeconfig a command used (the CLI's clusterLabel). */
export interface ClusterWhere {
  context: string;
  server: string;
}

/** ` (context kind-prod, server https://127.0.0.1:6443)`, or nothing when not told. */
export function clusterWhere(cluster: ClusterWhere | undefined): string {
  return cluster ? ` (context ${cluster.context}, server ${cluster.server})` : "";
}
