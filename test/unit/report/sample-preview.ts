// Hand-built previews as previewTarget would hand them over: live and wouldBe
// cleaned, a Secret masked by the engine's own maskers (so its real values
// exist here, for tests that check they never come out), the drift a scan of base.

import { maskSecretChange, maskSecretPair } from "../../../src/drift/mask.ts";
import type { PreviewReport, PreviewResource } from "../../../src/model/preview-report.ts";
import type { Change, KubeObject } from "../../../src/model/types.ts";
import { configMap, deployment, sampleReport } from "./sample-report.ts";

export const BASE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
export const HEAD = "9fceb02d0ae598e95dc970b74767f19372d61af8";

/** The Secret's real password before and after, plain: must never be printed, nor their base64. */
export const SECRET_VALUES = ["hunter2-old-s3cret", "hunter2-new-s3cret"];
export const SECRET_VALUES_BASE64 = SECRET_VALUES.map((v) => Buffer.from(v).toString("base64"));

function rawSecret(password: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db", namespace: "shop" },
    type: "Opaque",
    data: { password: Buffer.from(password).toString("base64"), user: Buffer.from("app").toString("base64") },
  };
}

/** The Secret's change after the engine's masking, as the preview carries it. */
function secretChange(): PreviewResource {
  const [live, wouldBe] = maskSecretPair(rawSecret(SECRET_VALUES[0]!), rawSecret(SECRET_VALUES[1]!));
  const change: Change = {
    path: "/data/password",
    desired: SECRET_VALUES_BASE64[1],
    live: SECRET_VALUES_BASE64[0],
    manager: "kubectl-edit",
  };
  return {
    apiVersion: "v1",
    kind: "Secret",
    namespace: "shop",
    name: "db",
    action: "change",
    source: { file: "shop/secret.yaml", document: 0 },
    changes: [maskSecretChange(change)],
    live,
    wouldBe,
  };
}

/**
 * Target `shop`: the Deployment scaled 2 → 3, a new ConfigMap, a changed Secret,
 * two unchanged objects, one prune of each action, and 5 objects already drifted from base.
 */
export function samplePreview(): PreviewReport {
  return {
    target: "shop",
    cluster: "prod",
    base: BASE,
    head: HEAD,
    status: "previewed",
    summary: { create: 1, change: 2, unchanged: 2, prune: 1, orphan: 1, keep: 1, refused: 1, drift: 5 },
    resources: [
      { apiVersion: "v1", kind: "Namespace", name: "shop", action: "unchanged", changes: [] },
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        namespace: "shop",
        name: "web",
        action: "change",
        source: { file: "shop/web.yaml", document: 1 },
        changes: [{ path: "/spec/replicas", desired: 3, live: 2, manager: "kubectl-scale" }],
        live: deployment(2, "info"),
        wouldBe: deployment(3, "info"),
      },
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "infra",
        name: "app-config",
        action: "create",
        source: { file: "shop/config.yaml", document: 0 },
        changes: [],
        wouldBe: configMap("info"),
        note: "namespace infra is created by this pull request: shown as rendered, without the server's defaults",
      },
      secretChange(),
      {
        apiVersion: "v1",
        kind: "Service",
        namespace: "shop",
        name: "web",
        action: "unchanged",
        source: { file: "shop/web.yaml", document: 0 },
        changes: [],
      },
    ],
    prune: [
      { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "old-config", action: "delete" },
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "shop",
        name: "legacy-flags",
        action: "orphan",
        reason: "prune is off for this target",
        guard: "not-requested",
      },
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "shop",
        name: "keep-me",
        action: "keep",
        reason: "annotation undrift.io/prune: disabled",
        guard: "opted-out",
      },
      {
        apiVersion: "v1",
        kind: "Namespace",
        name: "legacy",
        action: "refused",
        reason: "a Namespace is never pruned",
        guard: "kind",
      },
    ],
    drift: { ...sampleReport(), target: "shop", revision: BASE },
    problems: [],
    stats: { objects: 9, requests: 41, durationMs: 620, dryRuns: 4, desired: 5 },
  };
}

/** samplePreview without the refused prune: changes, but nothing a guard stops. */
export function changesOnlyPreview(): PreviewReport {
  const report = samplePreview();
  report.prune = report.prune.filter((p) => p.action !== "refused");
  report.summary.refused = 0;
  return report;
}

/** The invalid port the server refused in a dry-run, as the preview carries its refusal. */
export const INVALID_PORT =
  "422 Invalid: spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive";

/** The changes-only preview where the changed Deployment is one the server refuses: its apply would fail. */
export function failingPreview(): PreviewReport {
  const report = changesOnlyPreview();
  const web = report.resources.find((r) => r.kind === "Deployment")!;
  web.fails = INVALID_PORT;
  return report;
}

/** Target `infra` whose head does not render. */
export function renderFailedPreview(): PreviewReport {
  return {
    target: "infra",
    cluster: "prod",
    base: BASE,
    head: HEAD,
    status: "render-failed",
    error: {
      message: "kustomize build infra: accumulating resources: open infra/missing.yaml: no such file or directory",
      file: "infra/kustomization.yaml",
      line: 12,
    },
    summary: { create: 0, change: 0, unchanged: 0, prune: 0, orphan: 0, keep: 0, refused: 0, drift: 0 },
    resources: [],
    prune: [],
    problems: [],
  };
}

/** A target whose head renders exactly what the cluster runs. */
export function noChangePreview(target = "edge"): PreviewReport {
  return {
    target,
    cluster: "prod",
    base: BASE,
    head: HEAD,
    status: "previewed",
    summary: { create: 0, change: 0, unchanged: 1, prune: 0, orphan: 0, keep: 0, refused: 0, drift: 0 },
    resources: [{ apiVersion: "v1", kind: "Namespace", name: target, action: "unchanged", changes: [] }],
    prune: [],
    drift: {
      target,
      revision: BASE,
      summary: { inSync: 1, drifted: 0, missing: 0, orphaned: 0 },
      resources: [],
      problems: [],
      fingerprint: "sha256:e3b0c4",
    },
    problems: [],
  };
}

/** Target `bulk` where the PR changes `count` ConfigMaps, each with `keys` changed keys. */
export function hugePreview(count: number, keys = 20): PreviewReport {
  const resources: PreviewResource[] = [];
  for (let i = 0; i < count; i++) {
    const data = (side: string) =>
      Object.fromEntries(Array.from({ length: keys }, (_, k) => [`key-${k}`, `${side} value ${k} of cm-${i}`]));
    const object = (side: string): KubeObject => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `cm-${i}`, namespace: "bulk" },
      data: data(side),
    });
    resources.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "bulk",
      name: `cm-${i}`,
      action: "change",
      source: { file: `bulk/cm-${i}.yaml`, document: 0 },
      changes: [{ path: "/data/key-0", desired: `head value 0 of cm-${i}`, live: `live value 0 of cm-${i}` }],
      live: object("live"),
      wouldBe: object("head"),
    });
  }
  return {
    target: "bulk",
    cluster: "prod",
    base: BASE,
    head: HEAD,
    status: "previewed",
    summary: { create: 0, change: count, unchanged: 0, prune: 0, orphan: 0, keep: 0, refused: 0, drift: 0 },
    resources,
    prune: [],
    drift: {
      target: "bulk",
      revision: BASE,
      summary: { inSync: count, drifted: 0, missing: 0, orphaned: 0 },
      resources: [],
      problems: [],
      fingerprint: "sha256:e3b0c4",
    },
    problems: [],
  };
}
