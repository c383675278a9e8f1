// Waits until a resourceVersion has left what the API server can replay, so that
// a watch resumed from it is answered 410 Gone. The test cluster serves
// PodTemplates and LimitRanges from etcd rather than its watch cache, and has
// etcd's history compacted every few seconds (scripts/cluster/cluster.ts): a
// watch of those kinds from a resourceVersion read some seconds ago gets 410,
// as any watch does in a real cluster once compaction (every 5 minutes there)
// has passed its resourceVersion. Nothing needs writing meanwhile: the
// compaction itself moves the revision on.

import type { KubeClient } from "../../src/live/kube-client.ts";
import { eventually } from "./eventually.ts";

/** True once the server answers a watch from `resourceVersion` with 410 (as its status or an ERROR event). */
export async function expireWatchWindow(params: {
  admin: KubeClient;
  /** A PodTemplate or LimitRange collection, such as /api/v1/namespaces/ns/podtemplates. */
  path: string;
  resourceVersion: string;
}): Promise<true> {
  const { admin, path, resourceVersion } = params;
  return eventually(
    `a watch from resourceVersion ${resourceVersion} at ${path} to be answered 410 Gone ` +
      "(a cluster started before scripts/cluster/cluster.ts set --etcd-compaction-interval never does)",
    async () => {
      let gone = false;
      let events = 0;
      const stream = await admin
        .watch({ method: "GET", path, query: { watch: 1, resourceVersion, timeoutSeconds: 1 } }, (event) => {
          events++;
          if (event.type === "ERROR" && event.object.code === 410) gone = true;
        })
        .catch((error: unknown) => {
          // Any other refusal is the probe's answer, for a timeout to name.
          if ((error as { status?: number }).status !== 410) throw error;
          gone = true;
          return undefined;
        });
      await stream?.ended;
      if (gone) return true;
      throw new Error(`the watch was answered with ${events} events and no 410`);
    },
    { timeoutMs: 60_000, intervalMs: 1000 },
  );
}
