import { describe, expect, it } from "vitest";
import { changedFields, coverage, MAX_WRITTEN_FIELDS, patchFields } from "../../../src/drift/written-fields.ts";

const configMap = (data: Record<string, string>, extra: object = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "settings", resourceVersion: "1", managedFields: [{ manager: "a", time: "t1" }] },
  data,
  ...extra,
});

describe("changedFields: what an admitted write changed, from the object before and after", () => {
  it("is the paths that differ, without what the API server writes on every write", () => {
    const before = configMap({ LOG_LEVEL: "info", max: "10" });
    const after = {
      ...configMap({ LOG_LEVEL: "debug", max: "10", "a/b~c": "new" }),
      metadata: { name: "settings", resourceVersion: "2", managedFields: [{ manager: "b", time: "t2" }] },
    };
    expect(changedFields(before, after)).toEqual({ fields: ["/data/LOG_LEVEL", "/data/a~1b~0c"] });
  });

  it("says items of a list of one length by index, and a list that changed length only as somewhere within", () => {
    const pod = (containers: object[]) => ({ spec: { containers } });
    expect(changedFields(pod([{ name: "a", image: "x:1" }]), pod([{ name: "a", image: "x:2" }]))).toEqual({
      fields: ["/spec/containers/0/image"],
    });
    expect(changedFields(pod([{ name: "a" }]), pod([{ name: "b" }, { name: "a" }]))).toEqual({
      fields: [],
      within: ["/spec/containers"],
    });
  });

  it("is unknown without both objects, or past its bound", () => {
    expect(changedFields(null, configMap({ a: "1" }))).toEqual({});
    const many = Object.fromEntries(Array.from({ length: MAX_WRITTEN_FIELDS + 1 }, (_, i) => [`k${i}`, "v"]));
    expect(changedFields(configMap({}), configMap(many))).toEqual({});
  });
});

describe("patchFields: the fields a patch body names", () => {
  it("reads a merge patch's leaves, a null as a removal", () => {
    expect(patchFields({ data: { LOG_LEVEL: "debug", gone: null } })).toEqual({
      fields: ["/data/LOG_LEVEL", "/data/gone"],
    });
  });

  it("reads a JSON patch's paths", () => {
    expect(
      patchFields([
        { op: "replace", path: "/spec/replicas", value: 3 },
        { op: "test", path: "/metadata/name", value: "web" },
        { op: "move", from: "/data/a", path: "/data/b" },
      ]),
    ).toEqual({ fields: ["/spec/replicas", "/data/b", "/data/a"] });
  });

  it("takes a list or a $ directive of a strategic merge patch as somewhere within", () => {
    expect(
      patchFields({
        spec: { replicas: 2, template: { spec: { containers: [{ name: "web", image: "x:2" }] } } },
        metadata: { labels: { $patch: "replace", a: "b" } },
      }),
    ).toEqual({ fields: ["/spec/replicas"], within: ["/spec/template/spec/containers", "/metadata/labels"] });
  });

  it("is unknown for a body it cannot read", () => {
    expect(patchFields("text")).toEqual({});
    expect(patchFields([{ op: "add" }])).toEqual({});
  });
});

describe("coverage: whether a write changed a drifted field", () => {
  it("is yes for the field, a map above it or a part below it; maybe under a within; no elsewhere; unknown unsaid", () => {
    expect(coverage({ fields: ["/data/a"] }, "/data/a")).toBe("yes");
    expect(coverage({ fields: ["/data"] }, "/data/a")).toBe("yes");
    expect(coverage({ fields: [""] }, "/data/a")).toBe("yes");
    expect(coverage({ fields: ["/spec/template/spec/containers/0/image"] }, "/spec/template")).toBe("yes");
    expect(coverage({ fields: [], within: ["/spec/containers"] }, "/spec/containers/1/image")).toBe("maybe");
    expect(coverage({ fields: ["/data/ab"] }, "/data/a")).toBe("no");
    expect(coverage({ fields: ["/data/b"] }, "/data/a")).toBe("no");
    expect(coverage({}, "/data/a")).toBe("unknown");
  });
});
