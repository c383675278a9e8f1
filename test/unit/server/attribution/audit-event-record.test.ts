import { describe, expect, it } from "vitest";
import { parseEventList, recordOfEvent } from "../../../../src/server/attribution/audit-event-record.ts";
import { auditKinds } from "../../../../src/server/attribution/audit-kinds.ts";

// One event as kube-apiserver v1.34 writes it at level RequestResponse, plus a field a newer minor might add.
const patch = {
  level: "RequestResponse",
  auditID: "7a0c",
  stage: "ResponseComplete",
  requestURI: "/api/v1/namespaces/shop/configmaps/settings?fieldManager=kubectl-patch",
  verb: "patch",
  user: { username: "alice", groups: ["sre", "system:authenticated"] },
  sourceIPs: ["10.1.2.3", "127.0.0.1"],
  userAgent: "kubectl/v1.34.2 (linux/amd64) kubernetes/abc",
  objectRef: { resource: "configmaps", namespace: "shop", name: "settings", apiVersion: "v1" },
  responseStatus: { metadata: {}, code: 200 },
  requestObject: { data: { LOG_LEVEL: "debug" } },
  responseObject: { kind: "ConfigMap", data: { LOG_LEVEL: "debug" } },
  requestReceivedTimestamp: "2026-11-30T10:00:00.123456Z",
  stageTimestamp: "2026-11-30T10:00:00.130000Z",
  annotations: { "authorization.k8s.io/decision": "allow" },
  aNewerMinorsField: { anything: true },
};
const kinds = auditKinds({});
const kindOf = (group: string, resource: string) => kinds.kindOf("prod", group, resource);

describe("parseEventList", () => {
  it("takes an audit.k8s.io/v1 EventList with fields it does not know", () => {
    const parsed = parseEventList({ apiVersion: "audit.k8s.io/v1", kind: "EventList", metadata: {}, items: [patch] });
    expect(parsed).toEqual({ ok: true, events: [patch] });
  });

  it("refuses what is not one, in one line that never repeats the body", () => {
    expect(parseEventList([])).toEqual({ ok: false, reason: "expected a JSON object (an audit.k8s.io/v1 EventList)" });
    expect(parseEventList({ apiVersion: "audit.k8s.io/v1", kind: "Event" })).toEqual({
      ok: false,
      reason: 'kind: expected EventList, got "Event"',
    });
    expect(parseEventList({ apiVersion: "audit.k8s.io/v1beta1", kind: "EventList", items: [] })).toEqual({
      ok: false,
      reason: 'apiVersion: expected audit.k8s.io/v1, got "audit.k8s.io/v1beta1"',
    });
    expect(parseEventList({ apiVersion: "audit.k8s.io/v1", kind: "password: hunter2 and more", items: [] })).toEqual({
      ok: false,
      reason: "kind: expected EventList, got string",
    });
    expect(parseEventList({ apiVersion: "audit.k8s.io/v1", kind: "EventList", items: {} })).toEqual({
      ok: false,
      reason: "items: expected a list of audit events",
    });
    expect(parseEventList({ apiVersion: "audit.k8s.io/v1", kind: "EventList", items: [patch, "x"] })).toEqual({
      ok: false,
      reason: "items[1]: expected an audit event (an object)",
    });
  });
});

describe("recordOfEvent", () => {
  it("keeps who, what, how, where from, when and the paths the patch names, and no value of the request or response", () => {
    const record = recordOfEvent(patch, "prod", kindOf);
    expect(record).toEqual({
      cluster: "prod",
      object: { group: "", kind: "ConfigMap", namespace: "shop", name: "settings" },
      verb: "patch",
      username: "alice",
      groups: ["sre", "system:authenticated"],
      fieldManager: "kubectl-patch",
      userAgent: "kubectl/v1.34.2 (linux/amd64) kubernetes/abc",
      sourceIP: "10.1.2.3",
      fields: ["/data/LOG_LEVEL"],
      at: "2026-11-30T10:00:00.123Z",
      via: "audit",
    });
    expect(JSON.stringify(record)).not.toContain("debug");
  });

  it("does not say which fields when the event holds no patch body (level Metadata) or the write is a PUT", () => {
    const { requestObject: _, ...metadataLevel } = patch;
    expect(recordOfEvent(metadataLevel, "prod", kindOf)).not.toHaveProperty("fields");
    expect(recordOfEvent({ ...patch, verb: "update" }, "prod", kindOf)).not.toHaveProperty("fields");
    expect(recordOfEvent({ ...metadataLevel, verb: "create" }, "prod", kindOf)?.fields).toEqual([""]);
  });

  it("records a deletion, and a write to a subresource as such", () => {
    const deleted = { ...patch, verb: "delete", requestURI: "/apis/apps/v1/namespaces/shop/deployments/web" };
    const ref = { resource: "deployments", apiGroup: "apps", namespace: "shop", name: "web" };
    expect(recordOfEvent({ ...deleted, objectRef: ref }, "prod", kindOf)).toMatchObject({
      object: { group: "apps", kind: "Deployment", namespace: "shop", name: "web" },
      verb: "delete",
    });
    expect(recordOfEvent({ ...patch, objectRef: { ...ref, subresource: "scale" } }, "prod", kindOf)).toMatchObject({
      subresource: "scale",
      object: { kind: "Deployment" },
    });
  });

  it("skips reads, earlier stages, failed and dry-run writes, nameless objects and kinds it does not know", () => {
    expect(recordOfEvent({ ...patch, verb: "get" }, "prod", kindOf)).toBeUndefined();
    expect(recordOfEvent({ ...patch, verb: "watch" }, "prod", kindOf)).toBeUndefined();
    expect(recordOfEvent({ ...patch, stage: "RequestReceived" }, "prod", kindOf)).toBeUndefined();
    expect(recordOfEvent({ ...patch, responseStatus: { code: 409 } }, "prod", kindOf)).toBeUndefined();
    expect(recordOfEvent({ ...patch, requestURI: `${patch.requestURI}&dryRun=All` }, "prod", kindOf)).toBeUndefined();
    expect(
      recordOfEvent(
        { ...patch, verb: "delete", objectRef: { resource: "configmaps", namespace: "shop" } },
        "prod",
        kindOf,
      ),
    ).toBeUndefined();
    expect(
      recordOfEvent(
        { ...patch, objectRef: { ...patch.objectRef, apiGroup: "example.com", resource: "widgets" } },
        "prod",
        kindOf,
      ),
    ).toBeUndefined();
  });
});

describe("auditKinds", () => {
  it("asks the cluster's discovery for a resource Kubernetes does not define, at most once a minute", async () => {
    let asked = 0;
    let now = 0;
    const learning = auditKinds({
      now: () => now,
      discover: async () => {
        asked++;
        return [{ group: "example.com", resource: "widgets", kind: "Widget" }];
      },
    });
    const widgets = [{ group: "example.com", resource: "widgets" }];
    await learning.learn("prod", [{ group: "", resource: "configmaps" }]);
    expect(asked).toBe(0);
    await learning.learn("prod", widgets);
    expect(learning.kindOf("prod", "example.com", "widgets")).toBe("Widget");
    expect(learning.kindOf("edge", "example.com", "widgets")).toBeUndefined();
    await learning.learn("prod", [{ group: "example.com", resource: "gadgets" }]);
    expect(asked).toBe(1);
    now = 61_000;
    await learning.learn("prod", [{ group: "example.com", resource: "gadgets" }]);
    expect(asked).toBe(2);
  });
});
