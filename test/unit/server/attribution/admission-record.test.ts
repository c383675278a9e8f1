import { describe, expect, it } from "vitest";
import { allowAnswer, recordOf } from "../../../../src/server/attribution/admission-record.ts";

const at = new Date("2026-12-02T10:02:03.412Z");
const patch = {
  apiVersion: "admission.k8s.io/v1",
  request: {
    uid: "u-1",
    kind: { group: "", version: "v1", kind: "Secret" },
    name: "db",
    namespace: "shop",
    operation: "UPDATE",
    userInfo: { username: "alice", groups: ["sre", "system:authenticated"] },
    object: { metadata: { name: "db" }, data: { password: "Y2FuYXJ5" } },
    oldObject: { metadata: { name: "db" }, data: { password: "b2xk" } },
    options: { kind: "PatchOptions", fieldManager: "kubectl-patch" },
  },
};

describe("the admission recorder's reading of a review", () => {
  it("keeps who, what, the field manager, when and the paths the write changed, and no value of the object", () => {
    const record = recordOf(patch, "prod", at);
    expect(record).toEqual({
      cluster: "prod",
      object: { group: "", kind: "Secret", namespace: "shop", name: "db" },
      verb: "patch",
      username: "alice",
      groups: ["sre", "system:authenticated"],
      fieldManager: "kubectl-patch",
      fields: ["/data/password"],
      at: "2026-12-02T10:02:03.412Z",
      via: "admission",
    });
    expect(JSON.stringify(record)).not.toContain("Y2FuYXJ5");
    expect(JSON.stringify(record)).not.toContain("b2xk");
  });

  it("says a create wrote every field, a delete none, and an update without its old object nothing", () => {
    const created = { request: { ...patch.request, operation: "CREATE", oldObject: null } };
    expect(recordOf(created, "prod", at)?.fields).toEqual([""]);
    const deleted = { request: { ...patch.request, operation: "DELETE", object: null } };
    expect(recordOf(deleted, "prod", at)).not.toHaveProperty("fields");
    // An update without its old object does not say what it changed.
    const { oldObject: _, ...withoutOld } = patch.request;
    expect(recordOf({ request: withoutOld }, "prod", at)).not.toHaveProperty("fields");
  });

  it("keeps nothing of a dry run, which changes nothing", () => {
    expect(recordOf({ request: { ...patch.request, dryRun: true } }, "prod", at)).toBeUndefined();
  });

  it("allows every request, a malformed one too", () => {
    expect(allowAnswer(patch).response).toEqual({ uid: "u-1", allowed: true });
    expect(allowAnswer({}).response).toEqual({ uid: "", allowed: true });
  });
});
