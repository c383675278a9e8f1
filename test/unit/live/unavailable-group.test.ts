// A scan's problems name each API group discovery could not read (an APIService whose service is down):
// its kinds are unknown, so its orphans cannot be checked. (Discovery marking it so is checked against the
// real aggregator in test/end-to-end/scan-unavailable-group.test.ts.)
import { describe, expect, it } from "vitest";
import { ResourceIndex } from "../../../src/live/discovery.ts";
import { resolveDesired } from "../../../src/live/fetch-live.ts";
import type { KubeClient } from "../../../src/live/kube-client.ts";

describe("resolveDesired with an API group discovery could not read", () => {
  it("names the group and its APIService, and says its orphans are not checked", async () => {
    const index = new ResourceIndex([], { unavailable: ["metrics.k8s.io/v1beta1"] });
    const tracked = { objects: new Map(), partial: new Set<string>(), unlisted: new Map() };
    // Nothing is declared, so nothing is asked of the server.
    const client = {} as KubeClient;
    const state = await resolveDesired({ client, index, desired: [], tracked, selector: "undrift.dev/target=app" });
    expect(state.problems).toEqual([
      {
        group: "metrics.k8s.io",
        kind: "*",
        message:
          "orphans not checked in API group metrics.k8s.io/v1beta1: the API server could not discover it (check APIService v1beta1.metrics.k8s.io)",
      },
    ]);
  });
});
