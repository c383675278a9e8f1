import { describe, expect, it } from "vitest";
import { type DiffContext, diffValues, pointerOf, valueAt } from "../../../src/drift/diff-values.ts";
import { ListShapes } from "../../../src/drift/list-shapes.ts";
import { Ownership } from "../../../src/drift/managed-fields.ts";

const builtin: DiffContext = {
  shapes: new ListShapes({ ownership: [new Ownership([])], builtin: true }),
  sameScalar: (_path, a, b) => a === b,
};
const custom: DiffContext = {
  shapes: new ListShapes({ ownership: [new Ownership([])], builtin: false }),
  sameScalar: (_path, a, b) => a === b,
};

const pod = (containers: unknown[]) => ({ spec: { containers } });

describe("differences between two values", () => {
  it("matches containers by name, so a sidecar inserted first does not shift the app container", () => {
    const live = pod([
      { name: "istio-proxy", image: "docker.io/istio/proxyv2:1.24.2" },
      { name: "web", image: "ghcr.io/acme/web:1.4.3" },
    ]);
    const desired = pod([{ name: "web", image: "ghcr.io/acme/web:1.4.2" }]);
    const diffs = diffValues(live, desired, builtin);
    expect(diffs).toContainEqual({
      path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:image"],
      pointer: "/spec/containers/1/image",
      a: "ghcr.io/acme/web:1.4.3",
      b: "ghcr.io/acme/web:1.4.2",
    });
    expect(diffs.some((d) => d.b !== undefined && d.pointer.startsWith("/spec/containers/0"))).toBe(false);
  });

  it("reports an item only one side has as one change, at that side's index", () => {
    const live = pod([{ name: "web", env: [{ name: "LOG_LEVEL", value: "info" }] }]);
    const desired = pod([
      {
        name: "web",
        env: [
          { name: "FEATURE", value: "on" },
          { name: "LOG_LEVEL", value: "info" },
        ],
      },
    ]);
    expect(diffValues(live, desired, builtin)).toEqual([
      {
        path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:env", 'k:{"name":"FEATURE"}'],
        pointer: "/spec/containers/0/env/0",
        b: { name: "FEATURE", value: "on" },
      },
    ]);
  });

  it("reports an item only the first side has as one change, at its index there", () => {
    const live = pod([
      { name: "istio-proxy", image: "docker.io/istio/proxyv2:1.24.2" },
      { name: "web", image: "ghcr.io/acme/web:1.4.2" },
    ]);
    const desired = pod([{ name: "web", image: "ghcr.io/acme/web:1.4.2" }]);
    expect(diffValues(live, desired, builtin)).toEqual([
      {
        path: ["f:spec", "f:containers", 'k:{"name":"istio-proxy"}'],
        pointer: "/spec/containers/0",
        a: { name: "istio-proxy", image: "docker.io/istio/proxyv2:1.24.2" },
      },
    ]);
  });

  it("treats a list without merge keys as one value: a reordered args list is a change", () => {
    const live = pod([{ name: "web", args: ["--port", "8080"] }]);
    const desired = pod([{ name: "web", args: ["8080", "--port"] }]);
    expect(diffValues(live, desired, builtin)).toEqual([
      {
        path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:args"],
        pointer: "/spec/containers/0/args",
        a: ["--port", "8080"],
        b: ["8080", "--port"],
      },
    ]);
  });

  it("treats finalizers as a set: order does not matter, a new one does", () => {
    const live = { metadata: { finalizers: ["b.acme.io/cleanup", "a.acme.io/cleanup"] } };
    expect(diffValues(live, { metadata: { finalizers: ["a.acme.io/cleanup", "b.acme.io/cleanup"] } }, builtin)).toEqual(
      [],
    );
    expect(
      diffValues(
        live,
        { metadata: { finalizers: ["a.acme.io/cleanup", "b.acme.io/cleanup", "c.acme.io/x"] } },
        builtin,
      ),
    ).toEqual([
      {
        path: ["f:metadata", "f:finalizers", 'v:"c.acme.io/x"'],
        pointer: "/metadata/finalizers/2",
        b: "c.acme.io/x",
      },
    ]);
  });

  it("matches Service ports by port and protocol", () => {
    const live = {
      spec: {
        ports: [
          { name: "dns", port: 53, protocol: "UDP" },
          { name: "dns-tcp", port: 53, protocol: "TCP" },
        ],
      },
    };
    const desired = {
      spec: {
        ports: [
          { name: "dns-tcp", port: 53, protocol: "TCP" },
          { name: "dns", port: 53, protocol: "UDP" },
        ],
      },
    };
    expect(diffValues(live, desired, builtin)).toEqual([]);
  });

  it("compares the lists of a custom resource as whole values, since their merge keys are unknown", () => {
    const live = { spec: { rules: [{ name: "a" }, { name: "b" }] } };
    const desired = { spec: { rules: [{ name: "b" }, { name: "a" }] } };
    expect(diffValues(live, desired, custom)).toEqual([
      { path: ["f:spec", "f:rules"], pointer: "/spec/rules", a: live.spec.rules, b: desired.spec.rules },
    ]);
  });

  it("takes an empty map, an empty list and null for not set", () => {
    const live = { spec: { securityContext: {}, tolerations: [], nodeSelector: null } };
    expect(diffValues(live, { spec: {} }, builtin)).toEqual([]);
  });

  it("escapes / and ~ in pointers", () => {
    const diffs = diffValues(
      { metadata: { annotations: { "cert-manager.io/issuer": "staging", "a~b": "1" } } },
      { metadata: { annotations: { "cert-manager.io/issuer": "prod", "a~b": "2" } } },
      builtin,
    );
    expect(diffs.map((d) => d.pointer)).toEqual([
      "/metadata/annotations/cert-manager.io~1issuer",
      "/metadata/annotations/a~0b",
    ]);
  });

  it("uses the context to tell equal scalars, such as quantities", () => {
    const context: DiffContext = { ...builtin, sameScalar: (_path, a, b) => String(a) === String(b) };
    expect(diffValues({ spec: { replicas: "3" } }, { spec: { replicas: 3 } }, context)).toEqual([]);
  });
});

describe("finding a managedFields path in an object", () => {
  const live = pod([
    { name: "istio-proxy", ports: [{ containerPort: 15090, protocol: "TCP" }] },
    { name: "web", ports: [{ containerPort: 8080, protocol: "TCP" }] },
  ]);
  const path = ["f:spec", "f:containers", 'k:{"name":"web"}', "f:ports", 'k:{"containerPort":8080,"protocol":"TCP"}'];

  it("resolves keyed items to their index", () => {
    expect(pointerOf(live, path)).toBe("/spec/containers/1/ports/0");
    expect(valueAt(live, [...path, "f:containerPort"])).toBe(8080);
  });

  it("finds nothing for an item the object does not have", () => {
    const missing = ["f:spec", "f:containers", 'k:{"name":"worker"}', "f:image"];
    expect(valueAt(live, missing)).toBeUndefined();
    expect(pointerOf(live, missing)).toBeUndefined();
  });
});
