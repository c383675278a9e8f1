// A hand-built report with one object of each kind of drift, as the engine would hand it over:
// live and wouldBe already cleaned and the Secret's values already masked.
import type { DriftReport, KubeObject, ResourceReport } from "../../../src/model/types.ts";

export function deployment(replicas: number, logLevel: string): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "shop", labels: { app: "web" } },
    spec: {
      replicas,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [
            {
              name: "web",
              image: "ghcr.io/acme/web:1.4.2",
              env: [
                { name: "LOG_LEVEL", value: logLevel },
                { name: "PORT", value: "8080" },
              ],
            },
          ],
        },
      },
    },
  };
}

export function configMap(logLevel: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "app-config", namespace: "infra" },
    data: { LOG_LEVEL: logLevel, REGION: "eu-west-1" },
  };
}

export function secret(mask: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db", namespace: "shop" },
    type: "Opaque",
    data: { password: mask },
  };
}

const drifted: ResourceReport = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "shop",
  name: "web",
  status: "drifted",
  source: { file: "infra/web.yaml", document: 1 },
  changes: [
    {
      path: "/spec/replicas",
      desired: 3,
      live: 5,
      manager: "kubectl-scale",
      changedAt: "2026-11-30T09:00:00Z",
    },
    {
      path: "/spec/template/spec/containers/0/env/0/value",
      desired: "info",
      live: "debug",
      manager: "kubectl-edit",
    },
  ],
  live: deployment(5, "debug"),
  wouldBe: deployment(3, "info"),
};

export function sampleReport(): DriftReport {
  return {
    target: "infra",
    revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    summary: { inSync: 3, drifted: 3, missing: 1, orphaned: 1 },
    resources: [
      structuredClone(drifted),
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: "infra",
        name: "app-config",
        status: "drifted",
        source: { file: "infra/config.yaml", document: 0 },
        changes: [
          {
            path: "/data/LOG_LEVEL",
            desired: "info",
            live: "debug",
            manager: "kubectl-patch",
            changedAt: "2026-11-30T10:00:00Z",
          },
        ],
        live: configMap("debug"),
        wouldBe: configMap("info"),
      },
      {
        apiVersion: "v1",
        kind: "Secret",
        namespace: "shop",
        name: "db",
        status: "drifted",
        source: { file: "infra/secret.yaml", document: 0 },
        changes: [{ path: "/data/password", desired: "*** (after)", live: "*** (before)", manager: "kubectl-edit" }],
        live: secret("*** (before)"),
        wouldBe: secret("*** (after)"),
      },
      {
        apiVersion: "v1",
        kind: "Service",
        namespace: "shop",
        name: "web",
        status: "missing",
        source: { file: "infra/web.yaml", document: 0 },
        changes: [],
        wouldBe: {
          apiVersion: "v1",
          kind: "Service",
          metadata: { name: "web", namespace: "shop" },
          spec: { ports: [{ port: 80 }] },
        },
      },
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        name: "legacy-reader",
        status: "orphaned",
        changes: [],
        live: {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "ClusterRole",
          metadata: { name: "legacy-reader" },
          rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
        },
      },
      { apiVersion: "v1", kind: "Namespace", name: "shop", status: "in-sync", changes: [] },
    ],
    problems: [
      {
        kind: "Certificate",
        group: "cert-manager.io",
        namespace: "infra",
        name: "web-tls",
        message: "forbidden: cannot list",
      },
    ],
    fingerprint: "sha256:0f1e2d",
    stats: { objects: 8, requests: 12, durationMs: 340, dryRuns: 3, desired: 7 },
  };
}

/** The same target with nothing to report. */
export function inSyncReport(): DriftReport {
  return {
    target: "infra",
    revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    summary: { inSync: 3, drifted: 0, missing: 0, orphaned: 0 },
    resources: [],
    problems: [],
    fingerprint: "sha256:e3b0c4",
  };
}
