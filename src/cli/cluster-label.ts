// The context and API server a command talks to, for the text header: with
// several kubeconfigs and contexts about, a report must say which cluster it is of.
import type { KubeConfig } from "@kubernetes/client-node";
import type { ClusterWhere } from "../report/cluster-where.ts";

export function clusterLabel(kc: KubeConfig): ClusterWhere {
  return { context: kc.getCurrentContext() || "(none)", server: kc.getCurrentCluster()?.server ?? "(none)" };
}
