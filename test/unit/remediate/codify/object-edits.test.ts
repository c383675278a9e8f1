// From drift to edits: pointers become merge-key paths, added items keep only
// what a manager set, orphans are cleaned of server fields and defaults, and
// edits that a strategic-merge patch carries keep or replace lists as kustomize merges them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ListShapes } from "../../../../src/drift/list-shapes.ts";
import { Ownership } from "../../../../src/drift/managed-fields.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { driftEdits } from "../../../../src/remediate/codify/drift-edits.ts";
import { parseImage } from "../../../../src/remediate/codify/image-reference.ts";
import { orphanManifest } from "../../../../src/remediate/codify/orphan-manifest.ts";
import { patchEdit } from "../../../../src/remediate/codify/patch-edit.ts";
import { pointerToPath } from "../../../../src/remediate/codify/pointer-to-path.ts";
import { stripDefaults } from "../../../../src/remediate/codify/strip-defaults.ts";

const strayLive = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../fixtures/codify/orphan-deployment-live.json"), "utf8"),
) as KubeObject;

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: {
    containers: [
      { name: "istio-proxy", image: "istio" },
      { name: "web", image: "nginx", args: ["--a", "--b"], ports: [{ containerPort: 80, protocol: "TCP" }] },
    ],
    finalizers: ["a", "b"],
  },
};
const builtin = new ListShapes({ ownership: [], builtin: true });

describe("pointerToPath", () => {
  it("names keyed items by their merge key, set items by value, and stops at an atomic list", () => {
    expect(pointerToPath({ root: pod, pointer: "/spec/containers/1/image", shapes: builtin })).toEqual({
      path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:image"],
      truncated: false,
    });
    expect(pointerToPath({ root: pod, pointer: "/spec/containers/1/ports/0/containerPort", shapes: builtin })).toEqual({
      path: [
        "f:spec",
        "f:containers",
        'k:{"name":"web"}',
        "f:ports",
        'k:{"containerPort":80,"protocol":"TCP"}',
        "f:containerPort",
      ],
      truncated: false,
    });
    expect(pointerToPath({ root: pod, pointer: "/spec/containers/1/args/1", shapes: builtin })).toEqual({
      path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:args"],
      truncated: true,
    });
    expect(pointerToPath({ root: pod, pointer: "/spec/finalizers/1", shapes: builtin })).toEqual({
      path: ["f:spec", "f:finalizers", 'v:"b"'],
      truncated: false,
    });
    expect(pointerToPath({ root: pod, pointer: "/spec/containers/7/image", shapes: builtin })).toBeUndefined();
  });
});

describe("driftEdits", () => {
  it("writes a container a person added with only the fields kubectl set, not the server's defaults", () => {
    const desired = structuredClone(strayLive);
    desired.spec = { ...(desired.spec as object) };
    const live = structuredClone(strayLive);
    const container = (live.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers[0];
    (desired.spec as { template: { spec: { containers: unknown[] } } }).template = {
      spec: { containers: [] },
    } as never;
    const { edits } = driftEdits({
      desired,
      live,
      changes: [{ path: "/spec/template/spec/containers/0", live: container }],
      group: "apps",
    });
    expect(edits).toEqual([
      {
        path: ["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"nginx"}'],
        value: { image: "nginx:1.27", name: "nginx", ports: [{ containerPort: 80 }] },
        pointer: "/spec/template/spec/containers/0",
      },
    ]);
  });

  it("sets an atomic list once, whole, however many of its items changed", () => {
    const desired = structuredClone(pod) as unknown as KubeObject;
    const live = structuredClone(pod) as unknown as KubeObject;
    (live.spec as typeof pod.spec).containers[1]!.args = ["--b", "--c"];
    const { edits } = driftEdits({
      desired,
      live,
      changes: [
        { path: "/spec/containers/1/args/0", live: "--b", desired: "--a" },
        { path: "/spec/containers/1/args/1", live: "--c", desired: "--b" },
      ],
      group: "",
    });
    expect(edits).toEqual([
      {
        path: ["f:spec", "f:containers", 'k:{"name":"web"}', "f:args"],
        value: ["--b", "--c"],
        pointer: "/spec/containers/1/args/0",
      },
    ]);
  });
});

describe("orphanManifest", () => {
  it("keeps what kubectl create set and drops status, server metadata, defaults, noise and the tracking label", () => {
    const { manifest, defaults } = orphanManifest({
      live: strayLive,
      group: "apps",
      trackingLabel: { key: "undrift.dev/target", value: "app" },
      defaultNamespace: "shop",
      noisePointers: ["/metadata/annotations/kubernetes.io~1change-cause"],
    });
    expect(manifest).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "stray", labels: { app: "stray" } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "stray" } },
        template: {
          metadata: { labels: { app: "stray" } },
          spec: {
            containers: [{ image: "nginx:1.27", name: "nginx", ports: [{ containerPort: 80 }] }],
          },
        },
      },
    });
    // What was left out as a default is said, so the proof does not count it as drift.
    expect(defaults).toContainEqual({ path: ["f:spec", "f:progressDeadlineSeconds"], value: 600 });
    expect(defaults).toContainEqual({
      path: ["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"nginx"}', "f:terminationMessagePath"],
      value: "/dev/termination-log",
    });
  });

  it("keeps a namespace other than the target's", () => {
    const { manifest } = orphanManifest({
      live: strayLive,
      group: "apps",
      defaultNamespace: "other",
      noisePointers: [],
    });
    expect(manifest.metadata).toMatchObject({ name: "stray", namespace: "shop" });
    expect(manifest.metadata.labels).toEqual({ app: "stray", "undrift.dev/target": "app" });
  });

  it("keeps everything but server fields when no manager is recorded", () => {
    const live: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "shop", uid: "u", resourceVersion: "1", creationTimestamp: "t" },
      data: { a: "b" },
    };
    expect(orphanManifest({ live, group: "", defaultNamespace: "shop", noisePointers: [] }).manifest).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
      data: { a: "b" },
    });
  });
});

describe("patchEdit", () => {
  const intended = {
    spec: {
      template: { spec: { containers: [{ name: "web", args: ["--x"], env: [{ name: "A", value: "1" }] }] } },
      tolerations: [{ key: "k", operator: "Exists" }],
      items: [{ name: "a", size: 2 }],
    },
  };
  const web = ["f:spec", "f:template", "f:spec", "f:containers", 'k:{"name":"web"}'];

  it("keeps items of lists kustomize merges by key, and removes them with $patch: delete", () => {
    const env = [...web, "f:env", 'k:{"name":"A"}'];
    expect(
      patchEdit({ edit: { path: [...env, "f:value"], value: "1", pointer: "" }, intended, group: "apps" }),
    ).toEqual({
      path: [...env, "f:value"],
      value: "1",
    });
    expect(patchEdit({ edit: { path: env, pointer: "" }, intended, group: "apps" })).toEqual({
      path: env,
      value: { name: "A", $patch: "delete" },
    });
  });

  it("sets a removed field to null, and a list kustomize replaces to its whole intended value", () => {
    expect(patchEdit({ edit: { path: ["f:spec", "f:paused"], pointer: "" }, intended, group: "apps" })).toEqual({
      path: ["f:spec", "f:paused"],
      value: null,
    });
    const toleration = ["f:spec", "f:tolerations", 'v:{"key":"k","operator":"Exists"}'];
    expect(patchEdit({ edit: { path: toleration, value: {}, pointer: "" }, intended, group: "" })).toEqual({
      path: ["f:spec", "f:tolerations"],
      value: [{ key: "k", operator: "Exists" }],
    });
    // A custom resource's keyed list is replaced whole by a strategic merge.
    const item = ["f:spec", "f:items", 'k:{"name":"a"}', "f:size"];
    expect(patchEdit({ edit: { path: item, value: 2, pointer: "" }, intended, group: "example.com" })).toEqual({
      path: ["f:spec", "f:items"],
      value: [{ name: "a", size: 2 }],
    });
  });
});

describe("parseImage", () => {
  it("splits registry ports from tags, and digests", () => {
    expect(parseImage("nginx")).toEqual({ name: "nginx" });
    expect(parseImage("nginx:1.27")).toEqual({ name: "nginx", tag: "1.27" });
    expect(parseImage("registry:5000/team/web:2")).toEqual({ name: "registry:5000/team/web", tag: "2" });
    expect(parseImage("registry:5000/web@sha256:abc")).toEqual({ name: "registry:5000/web", digest: "sha256:abc" });
    expect(parseImage("web:1@sha256:abc")).toEqual({ name: "web", tag: "1", digest: "sha256:abc" });
  });
});

describe("Ownership fixture", () => {
  it("is a real kubectl-created Deployment with its managers", () => {
    expect(Ownership.of(strayLive).owned.map((o) => o.owner.manager)).toContain("kubectl-create");
  });
});

describe("stripDefaults", () => {
  it("drops a Service's allocated and defaulted fields but keeps a headless clusterIP and a distinct targetPort", () => {
    const service = {
      spec: {
        clusterIP: "10.0.0.7",
        clusterIPs: ["10.0.0.7"],
        ipFamilies: ["IPv4"],
        ipFamilyPolicy: "SingleStack",
        internalTrafficPolicy: "Cluster",
        sessionAffinity: "None",
        type: "ClusterIP",
        ports: [
          { port: 80, targetPort: 80, protocol: "TCP" },
          { port: 53, targetPort: 5353, protocol: "UDP" },
        ],
      },
    };
    expect(stripDefaults({ object: service, kind: "Service", group: "" }).object).toEqual({
      spec: { ports: [{ port: 80 }, { port: 53, targetPort: 5353, protocol: "UDP" }] },
    });
    const headless = { spec: { clusterIP: "None", clusterIPs: ["None"] } };
    expect(stripDefaults({ object: headless, kind: "Service", group: "" }).object).toEqual(headless);
  });

  it("keeps a pull policy that is not the image's default, and anything of a custom kind", () => {
    const pod = { spec: { containers: [{ name: "a", image: "nginx", imagePullPolicy: "IfNotPresent" }] } };
    expect(stripDefaults({ object: pod, kind: "Pod", group: "" }).object).toEqual(pod);
    const latest = { spec: { containers: [{ name: "a", image: "nginx:latest", imagePullPolicy: "Always" }] } };
    expect(stripDefaults({ object: latest, kind: "Pod", group: "" }).object).toEqual({
      spec: { containers: [{ name: "a", image: "nginx:latest" }] },
    });
    const custom = {
      spec: { containers: [{ name: "a", terminationMessagePolicy: "File" }], dnsPolicy: "ClusterFirst" },
    };
    expect(stripDefaults({ object: custom, kind: "Widget", group: "example.com" }).object).toEqual(custom);
  });
});
