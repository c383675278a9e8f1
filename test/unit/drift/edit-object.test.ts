import { describe, expect, it } from "vitest";
import { cleanObject } from "../../../src/drift/clean-object.ts";
import { removePath, removePointer, removeSegments, setPath } from "../../../src/drift/edit-object.ts";
import { isBuiltinGroup, ListShapes } from "../../../src/drift/list-shapes.ts";
import { Ownership } from "../../../src/drift/managed-fields.ts";
import { fixture } from "./drift-fixtures.ts";

describe("editing objects by path", () => {
  it("removes an annotation by a JSON pointer with an escaped /", () => {
    const object = { metadata: { annotations: { "cert-manager.io/issuer": "prod", team: "shop" } } };
    removePointer(object, "/metadata/annotations/cert-manager.io~1issuer");
    expect(object.metadata.annotations).toEqual({ team: "shop" });
  });

  it("leaves the object alone when a pointer names nothing", () => {
    const object = { spec: { replicas: 3 } };
    removePointer(object, "/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt");
    removePointer(object, "/spec/containers/4");
    expect(object).toEqual({ spec: { replicas: 3 } });
  });

  it("removes a list item by index, as jq's path() yields it", () => {
    const object = { spec: { containers: [{ name: "istio-proxy" }, { name: "web" }] } };
    removeSegments(object, ["spec", "containers", 0]);
    expect(object.spec.containers).toEqual([{ name: "web" }]);
  });

  it("sets a field inside a keyed item, finding the item by its key", () => {
    const object = fixture("deployment-in-sync-live");
    setPath(object, ["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"web"}', "f:image"], "web:2");
    const spec = object.spec as { template: { spec: { containers: Array<{ name: string; image: string }> } } };
    expect(spec.template.spec.containers.map((c) => [c.name, c.image])).toEqual([
      ["istio-proxy", "docker.io/istio/proxyv2:1.24.2"],
      ["web", "web:2"],
    ]);
  });

  it("creates a keyed item that is not there yet", () => {
    const object = { spec: { containers: [{ name: "web", env: [] as unknown[] }] } };
    setPath(object, ["f:spec", "f:containers", 'k:{"name":"web"}', "f:env", 'k:{"name":"DEBUG"}', "f:value"], "true");
    expect(object.spec.containers[0]!.env).toEqual([{ name: "DEBUG", value: "true" }]);
  });

  it("removes a keyed item, and nothing when the key matches no item", () => {
    const object = { metadata: { finalizers: ["a.acme.io/x", "b.acme.io/y"] }, spec: { ports: [{ port: 80 }] } };
    removePath(object, ["f:metadata", "f:finalizers", 'v:"a.acme.io/x"']);
    removePath(object, ["f:spec", "f:ports", 'k:{"port":443,"protocol":"TCP"}']);
    expect(object).toEqual({ metadata: { finalizers: ["b.acme.io/y"] }, spec: { ports: [{ port: 80 }] } });
  });
});

describe("cleaning an object for comparison", () => {
  it("drops the server's bookkeeping and status, keeps configuration, and leaves the input alone", () => {
    const live = fixture("deployment-in-sync-live");
    const clean = cleanObject(live);
    expect(Object.keys(clean.metadata).sort()).toEqual(["annotations", "labels", "name", "namespace"]);
    expect(clean).not.toHaveProperty("status");
    expect(clean.spec).toEqual(live.spec);
    expect(live.metadata.managedFields).toHaveLength(4);
  });
});

describe("list shapes", () => {
  const shapes = new ListShapes({ ownership: [Ownership.of(fixture("deployment-in-sync-live"))], builtin: true });
  const containers = ["f:spec", "f:template", "f:spec", "f:containers"];

  it("knows Kubernetes' merge keys for built-in lists", () => {
    expect(shapes.shapeOf(containers)).toEqual({ type: "map", keys: ["name"] });
    expect(shapes.shapeOf([...containers, 'k:{"name":"web"}', "f:env"])).toEqual({ type: "map", keys: ["name"] });
    expect(shapes.shapeOf(["f:spec", "f:ports"])).toEqual({ type: "map", keys: ["port", "protocol"] });
    expect(shapes.shapeOf([...containers, 'k:{"name":"x"}', "f:ports"])).toEqual({
      type: "map",
      keys: ["containerPort", "protocol"],
    });
    expect(shapes.shapeOf(["f:metadata", "f:finalizers"])).toEqual({ type: "set" });
    expect(shapes.shapeOf([...containers, 'k:{"name":"web"}', "f:args"])).toEqual({ type: "atomic" });
  });

  it("counts the core group, unqualified groups and *.k8s.io as built in, not CRD groups", () => {
    expect(["", "apps", "batch", "networking.k8s.io", "rbac.authorization.k8s.io"].every(isBuiltinGroup)).toBe(true);
    expect(["cert-manager.io", "widgets.acme.io", "monitoring.coreos.com"].some(isBuiltinGroup)).toBe(false);
  });
});
