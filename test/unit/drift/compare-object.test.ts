import { describe, expect, it } from "vitest";
import type { Change, FieldsV1, KubeObject, ManagedFieldsEntry } from "../../../src/model/types.ts";
import {
  byPath,
  compare,
  configMapInSync,
  containersOf,
  dataOf,
  entryOf,
  fixture,
  fixtureCase,
} from "./drift-fixtures.ts";

const webFields = (object: KubeObject): FieldsV1 => {
  const spec = entryOf(object, "undrift").fieldsV1!["f:spec"]!["f:template"]!["f:spec"]!;
  return spec["f:containers"]!['k:{"name":"web"}']!;
};
const web = (object: KubeObject) => containersOf(object).find((c) => c.name === "web")!;

function update(
  manager: string,
  time: string | undefined,
  fieldsV1: FieldsV1,
  apiVersion = "apps/v1",
): ManagedFieldsEntry {
  return {
    manager,
    operation: "Update",
    apiVersion,
    ...(time ? { time } : {}),
    fieldsType: "FieldsV1",
    fieldsV1,
  };
}

/** fieldsV1 of one field of the web container. */
const inWeb = (fields: FieldsV1): FieldsV1 => ({
  "f:spec": { "f:template": { "f:spec": { "f:containers": { 'k:{"name":"web"}': fields } } } },
});

describe("what is not drift", () => {
  it("a Deployment as the API server stores it is in sync: defaults, quantity spellings, a sidecar, controllers' annotations", async () => {
    const pair = fixtureCase("deployment-in-sync");
    const local = await compare(pair);
    expect(local.changes).toEqual([]);
    expect(local.needsDryRun).toBe(false);

    const exact = await compare({ ...pair, wouldBe: fixture("deployment-in-sync-live") });
    expect(exact.changes).toEqual([]);
  });

  it("a container port Git declares without a protocol is the live port with the defaulted TCP", async () => {
    const pair = fixtureCase("deployment-in-sync");
    delete web(pair.desired).ports[0]!.protocol;
    // Applied without a protocol, the applier owns the port by its defaulted key, but not the protocol field.
    delete webFields(pair.live)["f:ports"]!['k:{"containerPort":8080,"protocol":"TCP"}']!["f:protocol"];

    const local = await compare(pair);
    expect(local.changes).toEqual([]);
    expect(local.needsDryRun).toBe(false);
  });

  it("a Service's defaulted fields (clusterIP, ipFamilies, sessionAffinity, type, port protocol) are not drift", async () => {
    const pair = fixtureCase("service-issuer");
    pair.live.metadata.annotations = { "cert-manager.io/issuer": "letsencrypt-prod" };
    pair.live.metadata.managedFields = [entryOf(pair.live, "undrift")];
    entryOf(pair.live, "undrift").fieldsV1!["f:metadata"]!["f:annotations"] = { "f:cert-manager.io/issuer": {} };

    const local = await compare(pair);
    expect(local.changes).toEqual([]);
    expect(local.needsDryRun).toBe(false);
  });

  it("an annotation a controller owns is not drift, even with every noise filter off", async () => {
    const noiseFilters = {
      "kubectl-restarted-at": false,
      "deployment-revision": false,
      "last-applied-configuration": false,
      "change-cause": false,
    };
    expect((await compare(fixtureCase("deployment-in-sync"), { noiseFilters })).changes).toEqual([]);

    // A reloader's annotation on the ConfigMap.
    expect((await compare(configMapInSync(), { noiseFilters })).changes).toEqual([]);
  });

  it("replicas an autoscaler sets are not drift when Git leaves them out", async () => {
    const pair = fixtureCase("deployment-scaled");
    delete (pair.desired.spec as Record<string, unknown>).replicas;
    const local = await compare(pair);
    expect(local.changes).toEqual([]);
    expect(local.needsDryRun).toBe(false);
  });

  it("resource quota amounts written as 1e3, 1024Mi and 0.5 match the 1k, 1Gi and 500m the API server stores", async () => {
    const quota = (hard: Record<string, unknown>): KubeObject => ({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "shop", namespace: "shop" },
      spec: { hard },
    });
    const desired = quota({ pods: "1e3", "requests.memory": "1024Mi", "limits.cpu": 0.5 });
    const live = quota({ pods: "1k", "requests.memory": "1Gi", "limits.cpu": "500m" });
    live.metadata.managedFields = [
      {
        manager: "undrift",
        operation: "Apply",
        apiVersion: "v1",
        time: "2026-11-30T09:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { "f:hard": { "f:limits.cpu": {}, "f:pods": {}, "f:requests.memory": {} } } },
      },
    ];
    expect((await compare({ desired, live })).changes).toEqual([]);
  });
});

describe("quantities compare by amount only where Kubernetes stores quantities", () => {
  it("a cpu limit of 1 is not 1m", async () => {
    const pair = fixtureCase("deployment-in-sync");
    (web(pair.live).resources as { limits: Record<string, string> }).limits.cpu = "1m";
    delete (webFields(pair.live)["f:resources"]!["f:limits"] as FieldsV1)["f:cpu"];
    pair.live.metadata.managedFields!.push(
      update("kubectl-edit", "2026-11-30T10:40:00Z", inWeb({ "f:resources": { "f:limits": { "f:cpu": {} } } })),
    );

    expect((await compare(pair)).changes).toEqual([
      {
        path: "/spec/template/spec/containers/1/resources/limits/cpu",
        desired: 1,
        live: "1m",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:40:00Z",
      },
    ]);
  });

  it("a ConfigMap value is text: 0.5 and 500m differ", async () => {
    const pair = configMapInSync();
    dataOf(pair.live).cpu = "500m";
    expect((await compare(pair)).changes.map((c) => [c.path, c.desired, c.live])).toEqual([
      ["/data/cpu", "0.5", "500m"],
    ]);
  });

  it("a ConfigMap key named storage is text too: 1Gi and 1024Mi differ", async () => {
    const pair = configMapInSync();
    dataOf(pair.live).storage = "1024Mi";
    expect((await compare(pair)).changes.map((c) => [c.path, c.desired, c.live])).toEqual([
      ["/data/storage", "1Gi", "1024Mi"],
    ]);
  });

  it("a custom resource's resources are compared as written, since its API server does not normalize them", async () => {
    const widget = (cpu: string): KubeObject => ({
      apiVersion: "widgets.acme.io/v1",
      kind: "Widget",
      metadata: { name: "web", namespace: "shop" },
      spec: { resources: { requests: { cpu } } },
    });
    const live = widget("500m");
    live.metadata.managedFields = [
      update(
        "kubectl-edit",
        "2026-11-30T10:44:00Z",
        { "f:spec": { "f:resources": { "f:requests": { "f:cpu": {} } } } },
        "widgets.acme.io/v1",
      ),
    ];

    expect((await compare({ desired: widget("0.5"), live })).changes).toEqual([
      {
        path: "/spec/resources/requests/cpu",
        desired: "0.5",
        live: "500m",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:44:00Z",
      },
    ]);
  });
});

describe("what is drift", () => {
  it("hand edits with kubectl are drift, credited to the tool that made them and when", async () => {
    const local = await compare(fixtureCase("deployment-hand-edited"));

    expect(byPath(local.changes)).toEqual([
      {
        path: "/metadata/annotations/team.acme.io~1on-call",
        live: "payments",
        manager: "kubectl-annotate",
        changedAt: "2026-11-30T10:07:03Z",
      },
      {
        path: "/spec/template/spec/containers/1/env/1",
        live: { name: "DEBUG", value: "true" },
        manager: "kubectl-set",
        changedAt: "2026-11-30T10:05:42Z",
      },
      {
        path: "/spec/template/spec/containers/1/image",
        desired: "ghcr.io/acme/web:1.4.2",
        live: "ghcr.io/acme/web:1.4.3-hotfix",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:02:11Z",
      },
    ]);
    expect(local.needsDryRun).toBe(true);
  });

  it("points at the app container by its live index when a sidecar was inserted before it", async () => {
    const local = await compare(fixtureCase("deployment-hand-edited"));
    const image = local.changes.find((c) => c.path.endsWith("/image"));
    expect(image?.path).toBe("/spec/template/spec/containers/1/image");
  });

  it("shows what applying Git would leave: Git's image, and no hand-added annotation or env var", async () => {
    const local = await compare(fixtureCase("deployment-hand-edited"));
    expect(web(local.wouldBe).image).toBe("ghcr.io/acme/web:1.4.2");
    expect(web(local.wouldBe).env).toEqual([{ name: "LOG_LEVEL", value: "info" }]);
    expect(local.wouldBe.metadata.annotations).not.toHaveProperty("team.acme.io/on-call");
    expect(web(local.live).image).toBe("ghcr.io/acme/web:1.4.3-hotfix");
    expect(local.live.metadata.managedFields).toBeUndefined();
    expect(local.live.status).toBeUndefined();
  });

  it("a field Git adds is drift with no manager, at Git's index where live lacks the item", async () => {
    const pair = fixtureCase("deployment-in-sync");
    web(pair.desired).env.push({ name: "FEATURE_CHECKOUT_V2", value: "on" });

    const local = await compare(pair);
    expect(local.changes).toEqual([
      { path: "/spec/template/spec/containers/1/env/1", desired: { name: "FEATURE_CHECKOUT_V2", value: "on" } },
    ]);
    expect(local.needsDryRun).toBe(true);
    expect(web(local.wouldBe).env).toEqual([
      { name: "LOG_LEVEL", value: "info" },
      { name: "FEATURE_CHECKOUT_V2", value: "on" },
    ]);
  });

  it("a defaulted field a person changed by hand is drift", async () => {
    const pair = fixtureCase("deployment-in-sync");
    web(pair.live).imagePullPolicy = "Always";
    pair.live.metadata.managedFields!.push(
      update("kubectl-edit", "2026-11-30T10:12:00Z", inWeb({ "f:imagePullPolicy": {} })),
    );

    expect((await compare(pair)).changes).toEqual([
      {
        path: "/spec/template/spec/containers/1/imagePullPolicy",
        live: "Always",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:12:00Z",
      },
    ]);
  });

  it("fields a manager the target does not count as a person added are not drift; a changed Git field still is", async () => {
    const local = await compare(fixtureCase("deployment-hand-edited"), { humanManagers: ["k9s", "Mozilla"] });
    expect(local.changes.map((c) => c.path)).toEqual(["/spec/template/spec/containers/1/image"]);
  });

  it("replicas an autoscaler changed are drift when Git sets them, credited to it", async () => {
    const local = await compare(fixtureCase("deployment-scaled"));
    expect(local.changes).toEqual([
      { path: "/spec/replicas", desired: 3, live: 5, manager: "hpa-controller", changedAt: "2026-11-30T11:30:00Z" },
    ]);
  });

  it("replicas set by kubectl scale are drift, credited to kubectl with no time when the entry has none", async () => {
    const pair = fixtureCase("deployment-scaled");
    pair.live.spec = { ...(pair.live.spec as object), replicas: 1 };
    const scale = entryOf(pair.live, "hpa-controller");
    scale.manager = "kubectl";
    delete scale.time;

    expect((await compare(pair)).changes).toEqual([
      { path: "/spec/replicas", desired: 3, live: 1, manager: "kubectl" },
    ]);
  });

  it("a field the applier owned that Git dropped is a candidate the dry-run must confirm", async () => {
    const local = await compare(fixtureCase("configmap-dropped-key"));
    expect(byPath(local.changes)).toEqual([
      {
        path: "/data/LOG_LEVEL",
        desired: "info",
        live: "debug",
        manager: "kubectl-patch",
        changedAt: "2026-11-30T10:00:00Z",
      },
      {
        path: "/data/OLD_PAYMENTS_URL",
        live: "https://payments-v1.shop.svc:8443",
        manager: "undrift",
        changedAt: "2026-11-30T09:00:00Z",
      },
    ]);
    expect(local.needsDryRun).toBe(true);
    expect(local.wouldBe.data).toEqual({ FEATURE_CHECKOUT_V2: "on", LOG_LEVEL: "info", cpu: "0.5", storage: "1Gi" });
  });

  it("an env var the applier owned that Git dropped is one change, not one per field", async () => {
    const pair = fixtureCase("deployment-in-sync");
    web(pair.live).env.push({ name: "PAYMENTS_URL", value: "https://payments-v1.shop.svc:8443" });
    webFields(pair.live)["f:env"]!['k:{"name":"PAYMENTS_URL"}'] = { ".": {}, "f:name": {}, "f:value": {} };

    const local = await compare(pair);
    expect(local.changes).toEqual([
      {
        path: "/spec/template/spec/containers/1/env/1",
        live: { name: "PAYMENTS_URL", value: "https://payments-v1.shop.svc:8443" },
        manager: "undrift",
        changedAt: "2026-11-30T09:00:00Z",
      },
    ]);
    expect(local.needsDryRun).toBe(true);
  });

  it("a port a person added beside Git's port, with the same number and another protocol, is drift", async () => {
    // Git serves HTTPS on 443/TCP; someone added 443/UDP by hand for HTTP/3.
    const pair = fixtureCase("service-issuer");
    pair.desired.metadata.annotations = { "cert-manager.io/issuer": "letsencrypt-staging" };
    (pair.desired.spec as { ports: unknown[] }).ports.push({ name: "https", port: 443, targetPort: 8443 });
    (pair.live.spec as { ports: unknown[] }).ports.push(
      { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
      { name: "quic", port: 443, protocol: "UDP", targetPort: 8443 },
    );
    const ports = entryOf(pair.live, "undrift").fieldsV1!["f:spec"]!["f:ports"]!;
    ports['k:{"port":443,"protocol":"TCP"}'] = { ".": {}, "f:name": {}, "f:port": {}, "f:targetPort": {} };
    pair.live.metadata.managedFields = [
      entryOf(pair.live, "undrift"),
      update(
        "kubectl-edit",
        "2026-11-30T10:50:00Z",
        {
          "f:spec": {
            "f:ports": {
              'k:{"port":443,"protocol":"UDP"}': {
                ".": {},
                "f:name": {},
                "f:port": {},
                "f:protocol": {},
                "f:targetPort": {},
              },
            },
          },
        },
        "v1",
      ),
    ];
    entryOf(pair.live, "undrift").fieldsV1!["f:metadata"]!["f:annotations"] = { "f:cert-manager.io/issuer": {} };

    expect((await compare(pair)).changes).toEqual([
      {
        path: "/spec/ports/2",
        live: { name: "quic", port: 443, protocol: "UDP", targetPort: 8443 },
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:50:00Z",
      },
    ]);
  });

  it("a container a person added by hand is one change, at its live index", async () => {
    const pair = fixtureCase("deployment-in-sync");
    containersOf(pair.live).push({
      name: "debug",
      image: "docker.io/nicolaka/netshoot:v0.13",
      ports: [],
      env: [],
      command: ["sleep", "infinity"],
      terminationMessagePath: "/dev/termination-log",
      terminationMessagePolicy: "File",
      imagePullPolicy: "IfNotPresent",
    });
    pair.live.metadata.managedFields!.push(
      update("kubectl-edit", "2026-11-30T10:20:00Z", {
        "f:spec": {
          "f:template": {
            "f:spec": {
              "f:containers": {
                'k:{"name":"debug"}': {
                  ".": {},
                  "f:command": {},
                  "f:image": {},
                  "f:imagePullPolicy": {},
                  "f:name": {},
                  "f:terminationMessagePath": {},
                  "f:terminationMessagePolicy": {},
                },
              },
            },
          },
        },
      }),
    );

    const { changes } = await compare(pair);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      path: "/spec/template/spec/containers/2",
      live: { name: "debug", image: "docker.io/nicolaka/netshoot:v0.13" },
      manager: "kubectl-edit",
      changedAt: "2026-11-30T10:20:00Z",
    });
  });

  it("the applier a target names, such as Flux's kustomize-controller, is the one whose dropped fields count", async () => {
    const pair = fixtureCase("configmap-dropped-key");
    entryOf(pair.live, "undrift").manager = "kustomize-controller";

    const flux = await compare(pair, { fieldManager: "kustomize-controller" });
    expect(flux.changes.map((c) => [c.path, c.manager])).toContainEqual([
      "/data/OLD_PAYMENTS_URL",
      "kustomize-controller",
    ]);
    const other = await compare(pair);
    expect(other.changes.map((c) => c.path)).toEqual(["/data/LOG_LEVEL"]);
  });
});

describe("the exact pass, with the server's dry-run result", () => {
  it("reports what applying Git would change, plus what people added by hand", async () => {
    const exact = await compare({
      ...fixtureCase("deployment-hand-edited"),
      wouldBe: fixture("deployment-hand-edited-would-be"),
    });

    expect(byPath(exact.changes)).toEqual([
      {
        path: "/metadata/annotations/team.acme.io~1on-call",
        live: "payments",
        manager: "kubectl-annotate",
        changedAt: "2026-11-30T10:07:03Z",
      },
      {
        path: "/spec/template/spec/containers/1/env/1",
        live: { name: "DEBUG", value: "true" },
        manager: "kubectl-set",
        changedAt: "2026-11-30T10:05:42Z",
      },
      {
        path: "/spec/template/spec/containers/1/image",
        desired: "ghcr.io/acme/web:1.4.2",
        live: "ghcr.io/acme/web:1.4.3-hotfix",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:02:11Z",
      },
    ]);
    expect(exact.needsDryRun).toBe(false);
    expect(web(exact.wouldBe).image).toBe("ghcr.io/acme/web:1.4.2");
    expect(web(exact.wouldBe).env).toEqual([{ name: "LOG_LEVEL", value: "info" }]);
    expect(exact.wouldBe.metadata.annotations).not.toHaveProperty("team.acme.io/on-call");
  });

  it("confirms a key Git dropped is removed by applying", async () => {
    const exact = await compare({
      ...fixtureCase("configmap-dropped-key"),
      wouldBe: fixture("configmap-dropped-key-would-be"),
    });
    expect(byPath(exact.changes)).toEqual([
      {
        path: "/data/LOG_LEVEL",
        desired: "info",
        live: "debug",
        manager: "kubectl-patch",
        changedAt: "2026-11-30T10:00:00Z",
      },
      {
        path: "/data/OLD_PAYMENTS_URL",
        live: "https://payments-v1.shop.svc:8443",
        manager: "undrift",
        changedAt: "2026-11-30T09:00:00Z",
      },
    ]);
    expect(exact.wouldBe.data).toEqual({ FEATURE_CHECKOUT_V2: "on", LOG_LEVEL: "info", cpu: "0.5", storage: "1Gi" });
  });

  it("clears a candidate the server keeps: a dropped key that another manager also owns stays", async () => {
    const pair = fixtureCase("configmap-dropped-key");
    pair.live.metadata.managedFields!.push(
      update("helm", "2026-11-29T16:00:00Z", { "f:data": { "f:OLD_PAYMENTS_URL": {} } }, "v1"),
    );
    const wouldBe = fixture("configmap-dropped-key-would-be");
    dataOf(wouldBe).OLD_PAYMENTS_URL = "https://payments-v1.shop.svc:8443";

    expect((await compare(pair)).changes.map((c) => c.path)).toContain("/data/OLD_PAYMENTS_URL");
    expect((await compare({ ...pair, wouldBe })).changes.map((c) => c.path)).toEqual(["/data/LOG_LEVEL"]);
  });

  it("an env var applying Git would remove is one change", async () => {
    const pair = fixtureCase("deployment-in-sync");
    web(pair.live).env.push({ name: "PAYMENTS_URL", value: "https://payments-v1.shop.svc:8443" });
    webFields(pair.live)["f:env"]!['k:{"name":"PAYMENTS_URL"}'] = { ".": {}, "f:name": {}, "f:value": {} };
    const wouldBe = fixture("deployment-in-sync-live");

    expect((await compare({ ...pair, wouldBe })).changes).toEqual([
      {
        path: "/spec/template/spec/containers/1/env/1",
        live: { name: "PAYMENTS_URL", value: "https://payments-v1.shop.svc:8443" },
        manager: "undrift",
        changedAt: "2026-11-30T09:00:00Z",
      },
    ]);
  });

  it("finds nothing when applying Git changes nothing, whatever the local pass guessed", async () => {
    const pair = fixtureCase("deployment-scaled");
    const wouldBe = fixture("deployment-scaled-live");
    const exact = await compare({ ...pair, wouldBe }, { ignoreDifferences: [{ jsonPointers: ["/spec/replicas"] }] });
    expect(exact.changes).toEqual([]);
  });
});

describe("what the reconcilers' per-object annotations change in a comparison", () => {
  /** The hand-edited Deployment with `annotations` applied from Git (on both sides, as an apply leaves them). */
  function annotated(annotations: Record<string, string>) {
    const pair = fixtureCase("deployment-hand-edited");
    for (const object of [pair.desired, pair.live])
      object.metadata.annotations = { ...object.metadata.annotations, ...annotations };
    return pair;
  }
  const paths = (changes: Change[]) => byPath(changes).map((c) => c.path);
  const all = [
    "/metadata/annotations/team.acme.io~1on-call",
    "/spec/template/spec/containers/1/env/1",
    "/spec/template/spec/containers/1/image",
  ];

  it("Flux's ssa: Merge keeps what a person added beside Git; a field Git sets and a person changed is still drift", async () => {
    expect(paths((await compare(annotated({}))).changes)).toEqual(all);
    const merge = await compare(annotated({ "kustomize.toolkit.fluxcd.io/ssa": "merge" }));
    expect(paths(merge.changes)).toEqual(["/spec/template/spec/containers/1/image"]);
    expect(merge.needsDefaults).toBe(false);
  });

  it("Argo CD's ignore-differences-json-pointers ignores the fields it names on that object, items trimmed", async () => {
    const found = await compare(
      annotated({
        "argocd.argoproj.io/ignore-differences-json-pointers":
          " /metadata/annotations/team.acme.io~1on-call ,spec/not-a-pointer",
      }),
    );
    expect(paths(found.changes)).toEqual(all.slice(1));
    expect(found.wouldBe.metadata.annotations).not.toHaveProperty("team.acme.io/on-call");
  });

  it("reads the pointers from the live object too, where a person may have put them", async () => {
    const pair = fixtureCase("deployment-hand-edited");
    pair.live.metadata.annotations = {
      ...pair.live.metadata.annotations,
      "argocd.argoproj.io/ignore-differences-json-pointers": "/metadata/annotations",
    };
    const found = await compare(pair);
    expect(paths(found.changes)).toEqual(all.slice(1));
  });
});
