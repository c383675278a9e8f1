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

/** Whether the server answers a watch from `resourceVersion` with 410 within 150 s of writes. */
export async function expireWatchWindow(params: {
  admin: KubeClient;
  /** The kind's collection in one namespace, such as /api/v1/namespaces/ns/podtemplates. */
  path: string;
  /** An object at path/churn no test tracks, written to fill the window. */
  churn: string;
  resourceVersion: string;
}): Promise<boolean> {
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
  const deadline = Date.now() + 150_000;
  for (let batch = 0; Date.now() < deadline; batch++) {
    if (await expired()) return true;
    await mapLimit(
      Array.from({ length: 100 }, (_, i) => batch * 100 + i),
      8,
      (i) =>
        admin.send({
          method: "PATCH",
          path: `${path}/${params.churn}`,
          contentType: "application/merge-patch+json",
          body: { metadata: { annotations: { churn: String(i) } } },
        }),
    );
  }
  return expired();
}
