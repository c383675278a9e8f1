import { describe, expect, it } from "vitest";
import type { ApiResource } from "../../../src/live/api-resource.ts";
import { ResourceIndex } from "../../../src/live/discovery.ts";
import { trackableKinds } from "../../../src/live/fetch-live.ts";

const kind = (group: string, name: string, verbs: string[], preferred = true): ApiResource => ({
  group,
  version: "v1",
  kind: name,
  resource: `${name.toLowerCase()}s`,
  namespaced: true,
  verbs,
  preferred,
});
const all = ["create", "delete", "get", "list", "patch", "update", "watch"];

describe("trackableKinds", () => {
  it("lists every kind someone can write and list, custom ones included, once per group and kind", () => {
    const index = new ResourceIndex([
      kind("", "ConfigMap", all),
      kind("example.com", "Widget", all),
      kind("example.com", "Widget", all, false),
      kind("example.com", "Gadget", ["list", "patch"]),
    ]);
    expect(trackableKinds(index).map((r) => `${r.group}/${r.kind}`)).toEqual([
      "/ConfigMap",
      "example.com/Widget",
      "example.com/Gadget",
    ]);
  });

  it("leaves out what cannot hold a target's objects: events, leases, read-only and unlistable kinds", () => {
    const index = new ResourceIndex([
      kind("", "Event", all),
      kind("events.k8s.io", "Event", all),
      kind("coordination.k8s.io", "Lease", all),
      kind("", "ComponentStatus", ["get", "list"]),
      kind("metrics.k8s.io", "PodMetrics", ["get", "list"]),
      kind("authorization.k8s.io", "SubjectAccessReview", ["create"]),
    ]);
    expect(trackableKinds(index)).toEqual([]);
  });
});
