// Pushes a resourceVersion out of the API server's window of recent changes to
// a kind (its watch cache), so that a watch resumed from it is answered 410
// Gone. The server keeps a window's events for sure for 75 s: wait that out
// first (the network to the watch cut meanwhile), then call this. It writes
// the untracked object `churn` at `path` a hundred times at a go, and after each
// hundred asks for a watch from `resourceVersion` until the server answers 410.
//
// How many writes that takes is the window's size, which the server grows
// while the changes it holds are younger than 75 s (up to 102,400 events): a
// test writing the same kind meanwhile can leave it thousands of events long.
// So the writes go on until 410 or for 150 s, not for a fixed count; give each
// such test a kind of its own all the same (PodTemplate, LimitRange), so that
// neither waits on the window the other grew.

import type { KubeClient } from "../../src/live/kube-client.ts";
import { mapLimit } from "../../src/live/map-limit.ts";
import { eventually, GaveUp } from "./eventually.ts";

/** True once the server answers a watch from `resourceVersion` with 410; fails after 150 s of writes without. */
export async function expireWatchWindow(params: {
  admin: KubeClient;
  /** The kind's collection in one namespace, such as /api/v1/namespaces/ns/podtemplates. */
  path: string;
  /** An object at path/churn no test tracks, written to fill the window. */
  churn: string;
  resourceVersion: string;
}): Promise<true> {
  const { admin, path, resourceVersion } = params;
  const expired = async () => {
    let gone = false;
    const stream = await admin
      .watch({ method: "GET", path, query: { watch: 1, resourceVersion, timeoutSeconds: 1 } }, (event) => {
        if (event.type === "ERROR" && event.object.code === 410) gone = true;
      })
      .catch((error: unknown) => {
        if ((error as { status?: number }).status === 410) gone = true;
        return undefined;
      });
    await stream?.ended;
    return gone;
  };
  // Checked first (it may have expired already), then after each hundred writes.
  let batch = 0;
  return eventually(
    `a watch from resourceVersion ${resourceVersion} at ${path} to be answered 410 Gone`,
    async () => {
      if (batch > 0)
        await mapLimit(
          Array.from({ length: 100 }, (_, i) => (batch - 1) * 100 + i),
          8,
          (i) =>
            admin.send({
              method: "PATCH",
              path: `${path}/${params.churn}`,
              contentType: "application/merge-patch+json",
              body: { metadata: { annotations: { churn: String(i) } } },
            }),
        ).catch((error: unknown) => {
          // A write the server refused is no reason to write more: fail with it.
          throw new GaveUp(`a churn write failed: ${error instanceof Error ? error.message : String(error)}`);
        });
      batch++;
      if (await expired()) return true;
      // Thrown, so that a timeout says how far the writes went.
      throw new Error(`no 410 yet after ${(batch - 1) * 100} writes`);
    },
    { timeoutMs: 150_000, intervalMs: 0 },
  );
}
