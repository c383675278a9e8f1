// A kwok node of a test namespace's own, so the test's pods run whatever other runs
// leave pending on the shared nodes (scripts/cluster/kwok.ts ownNode says how).
// Usage: create the namespace as the test means to, then `await giveOwnNode(ns)`
// before anything in it makes pods. The node goes when the namespace does.
import { ownNode, ownNodeAnnotations, ownNodeKey, ownNodeName } from "../../scripts/cluster/kwok.ts";
import type { KubeObject } from "../../src/model/types.ts";
import { client, kubectl } from "./cluster.ts";
import { eventually, GaveUp } from "./eventually.ts";

// Not one of a target's human managers: the annotations are the harness's, never drift a scan reports.
const fieldManager = "undrift-test-nodes";

function apply(path: string, object: unknown): Promise<KubeObject> {
  return client().send<KubeObject>({
    method: "PATCH",
    path,
    query: { fieldManager, force: true },
    body: object,
    contentType: "application/apply-patch+yaml",
  });
}

/** Annotates `namespace` (creating it if need be) and gives it its own node; resolves once new pods go there. */
export async function giveOwnNode(namespace: string): Promise<void> {
  const ns = await apply(`/api/v1/namespaces/${namespace}`, {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: namespace, annotations: ownNodeAnnotations(namespace) },
  });
  const node = ownNode({ name: namespace, uid: ns.metadata.uid as string });
  await apply(`/api/v1/nodes/${node.metadata.name}`, node);
  // The admission plugins read namespaces from the API server's cache, which may not yet hold the annotations:
  // a dry-run pod shows what admission does to the next real one.
  const probe = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "own-node-probe" },
    spec: { automountServiceAccountToken: false, containers: [{ name: "probe", image: "probe" }] },
  };
  await eventually(
    `admission to send the pods of ${namespace} to ${ownNodeName(namespace)}`,
    async () => {
      const pod = await client().send<KubeObject & { spec: { nodeSelector?: Record<string, string> } }>({
        method: "POST",
        path: `/api/v1/namespaces/${namespace}/pods`,
        query: { dryRun: "All" },
        body: probe,
      });
      if (pod.spec.nodeSelector?.[ownNodeKey] === namespace) return true;
      if (!(await admissionPluginOn()))
        throw new GaveUp("the API server runs without PodNodeSelector: restart the cluster (cluster:down, cluster:up)");
      return undefined;
    },
    30_000,
  );
}

let pluginSeen = false;

/**
 * Whether the API server has run PodNodeSelector, as its metrics count it: a probe that missed may only have
 * met a stale cache, but a cluster started before cluster.ts enabled the plugin never places the pods.
 */
async function admissionPluginOn(): Promise<boolean> {
  pluginSeen ||= (await kubectl(["get", "--raw", "/metrics"])).includes('{name="PodNodeSelector"');
  return pluginSeen;
}
