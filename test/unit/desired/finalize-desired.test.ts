import { describe, expect, it } from "vitest";
import {
  DuplicateObjectError,
  finalizeDesired,
  type Scope,
  UnavailableKindError,
  UnknownKindError,
} from "../../../src/desired/finalize-desired.ts";
import type { DesiredObject, KubeObject } from "../../../src/model/types.ts";

// What discovery of a plain cluster answers.
const served: Record<string, Scope> = {
  "v1/ConfigMap": "Namespaced",
  "v1/Namespace": "Cluster",
  "apps/v1/Deployment": "Namespaced",
  "rbac.authorization.k8s.io/v1/ClusterRole": "Cluster",
  "apiextensions.k8s.io/v1/CustomResourceDefinition": "Cluster",
};
const scopeOf = (apiVersion: string, kind: string) => served[`${apiVersion}/${kind}`];

function desired(
  object: Omit<KubeObject, "metadata"> & { metadata: KubeObject["metadata"] },
  file = "infra/a.yaml",
  document = 0,
): DesiredObject {
  return { object: object as KubeObject, source: { file, document } };
}
const configMap = (name: string, namespace?: string) =>
  desired({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...(namespace ? { namespace } : {}) } });

describe("finalizing desired objects", () => {
  it("puts namespaced objects that name no namespace into the target's namespace", () => {
    const [defaulted, own] = finalizeDesired({
      objects: [configMap("a"), configMap("b", "other")],
      namespace: "shop",
      scopeOf,
    });
    expect(defaulted?.object.metadata.namespace).toBe("shop");
    expect(own?.object.metadata.namespace).toBe("other");
  });

  it("uses the default namespace, like kubectl, when the target names none", () => {
    const [object] = finalizeDesired({ objects: [configMap("a")], scopeOf });
    expect(object?.object.metadata.namespace).toBe("default");
  });

  it("never gives cluster-scoped objects a namespace, and drops one a manifest sets", () => {
    const objects = [
      desired({ apiVersion: "v1", kind: "Namespace", metadata: { name: "shop" } }),
      desired({
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: "r", namespace: "shop" },
      }),
    ];
    const result = finalizeDesired({ objects, namespace: "shop", scopeOf });
    expect(result.map((o) => o.object.metadata)).toEqual([{ name: "shop" }, { name: "r" }]);
  });

  it("learns the scope of a kind from a CustomResourceDefinition in the same target", () => {
    const crd = (kind: string, scope: Scope) =>
      desired({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        metadata: { name: `${kind.toLowerCase()}s.example.com` },
        spec: { group: "example.com", scope, names: { kind, plural: `${kind.toLowerCase()}s` } },
      });
    const objects = [
      crd("Widget", "Namespaced"),
      crd("Gadget", "Cluster"),
      desired({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } }),
      desired({ apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g", namespace: "x" } }),
    ];
    const [, , widget, gadget] = finalizeDesired({ objects, namespace: "shop", scopeOf });
    expect(widget?.object.metadata.namespace).toBe("shop");
    expect(gadget?.object.metadata).not.toHaveProperty("namespace");
  });

  it("refuses a kind that neither the cluster nor the target defines, naming where it is declared", () => {
    const objects = [
      desired({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } }, "infra/w.yaml", 2),
    ];
    expect(() => finalizeDesired({ objects, scopeOf })).toThrow(UnknownKindError);
    expect(() => finalizeDesired({ objects, scopeOf })).toThrow(
      'infra/w.yaml: document 2: example.com/v1 Widget "w": unknown kind: the cluster does not serve it and no CustomResourceDefinition in this target defines it',
    );
  });

  it("refuses two declarations of one object, naming both sources, whatever their API version", () => {
    const objects = [
      desired(
        { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "shop" } },
        "infra/a.yaml",
        0,
      ),
      desired({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web" } }, "infra/b.yaml", 1),
      desired({ apiVersion: "apps/v1beta2", kind: "Deployment", metadata: { name: "web" } }, "infra/b.yaml", 2),
    ];
    const served2 = (apiVersion: string, kind: string) =>
      scopeOf(apiVersion === "apps/v1beta2" ? "apps/v1" : apiVersion, kind);
    const run = () => finalizeDesired({ objects, namespace: "shop", scopeOf: served2 });
    expect(run).toThrow(DuplicateObjectError);
    expect(run).toThrow(
      "duplicate object apps/Deployment shop/web: infra/a.yaml (document 0) and infra/b.yaml (document 2)",
    );
  });

  it("tells a namespaced object from a cluster-scoped one of the same name apart", () => {
    const objects = [
      desired({ apiVersion: "v1", kind: "Namespace", metadata: { name: "web" } }),
      configMap("web"),
      configMap("web", "other"),
    ];
    expect(finalizeDesired({ objects, namespace: "shop", scopeOf })).toHaveLength(3);
  });

  it("sets the tracking label on every object, keeping the labels it has", () => {
    const labelled = desired({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", labels: { app: "web" } } });
    const result = finalizeDesired({
      objects: [labelled, configMap("b")],
      trackingLabel: { key: "undrift.dev/target", value: "infra" },
      scopeOf,
    });
    expect(result.map((o) => o.object.metadata.labels)).toEqual([
      { app: "web", "undrift.dev/target": "infra" },
      { "undrift.dev/target": "infra" },
    ]);
  });

  it("never changes the objects it was given", () => {
    const input = [
      desired({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "a", labels: { app: "web" } },
        data: { k: "v" },
      }),
      desired({ apiVersion: "v1", kind: "Namespace", metadata: { name: "n", namespace: "x" } }),
    ];
    const before = structuredClone(input);
    const result = finalizeDesired({ objects: input, trackingLabel: { key: "t", value: "v" }, scopeOf });
    expect(input).toEqual(before);
    expect(result[0]?.object.data).not.toBe(input[0]?.object.data);
    expect(result[0]?.source).toEqual(input[0]?.source);
  });

  it("says a kind of an API group discovery could not read is unavailable, not unknown, and may pass later", () => {
    const widget = desired({ apiVersion: "broken.example.com/v1", kind: "Widget", metadata: { name: "w" } });
    const finalize = () => finalizeDesired({ objects: [widget], scopeOf, unavailable: ["broken.example.com/v1"] });
    expect(finalize).toThrow(
      new UnavailableKindError(
        'infra/a.yaml: document 0: broken.example.com/v1 Widget "w": API group broken.example.com/v1 is unavailable: the API server could not discover it (check APIService v1.broken.example.com)',
      ),
    );
  });
});
