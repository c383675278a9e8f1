// After CustomResourceDefinitions are applied and Established, the API server
// takes a moment to serve their kinds in discovery. Discover again until every
// object's kind resolves, or the deadline passes (or Ctrl-C); the caller reports the rest.

import { discover, type ResourceIndex } from "../../live/discovery.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import type { KubeObject } from "../../model/types.ts";

export async function awaitKinds(params: {
  client: KubeClient;
  objects: KubeObject[];
  deadline: number;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}): Promise<ResourceIndex> {
  const sleep = params.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (;;) {
    const index = await discover(params.client);
    if (params.objects.every((o) => index.find(o.apiVersion, o.kind))) return index;
    if (Date.now() >= params.deadline || params.signal?.aborted) return index;
    await sleep(250);
  }
}
