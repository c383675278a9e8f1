// Scans across the shapes a GitOps repository takes: cluster-scoped objects, a
// CRD with its custom resources in one target, kustomize overlays, helm charts.
import { afterEach, describe, expect, it } from "vitest";
import type { DriftReport } from "../../src/model/types.ts";
import { widgetCrd } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const statuses = (report: DriftReport) =>
  Object.fromEntries(report.resources.map((r) => [`${r.kind}/${r.name}`, r.status]));

describe("undrift scan: kinds and renderers", () => {
  it("compares cluster-scoped objects without a namespace", async () => {
    current = scenario({
      files: {
        "manifests/role.yaml": `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: $NS-reader
rules:
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list]
`,
      },
    });
    await current.applyGit();
    const clean = await current.scanReport();
    expect(clean.code).toBe(0);
    expect(clean.report.resources[0]).not.toHaveProperty("namespace");

    await kubectl([
      "patch",
      "clusterrole",
      `${current.namespace}-reader`,
      "--type=json",
      "-p",
      '[{"op":"add","path":"/rules/0/verbs/-","value":"watch"}]',
    ]);
    const { report } = await current.scanReport();
    expect(report.resources[0]).toMatchObject({ kind: "ClusterRole", status: "drifted" });
    expect(report.resources[0]?.changes[0]).toMatchObject({ path: "/rules", manager: "kubectl-patch" });
  });

  it("scans a CRD and its custom resource in one target, before and after the CRD exists", async () => {
    const group = `${Math.random().toString(36).slice(2, 8)}.example.com`;
    current = scenario({
      files: {
        "manifests/crd.yaml": widgetCrd(group),
        "manifests/widget.yaml": `apiVersion: ${group}/v1
kind: Widget
metadata:
  name: blue
spec:
  size: 3
  color: blue
`,
      },
    });
    const before = await current.scanReport();
    expect(statuses(before.report)).toEqual({
      [`CustomResourceDefinition/widgets.${group}`]: "missing",
      "Widget/blue": "missing",
    });

    await kubectl(["create", "namespace", current.namespace]);
    await kubectl(["apply", "--server-side", "--field-manager=undrift", "-f", `${current.repoDir}/manifests/crd.yaml`]);
    await kubectl(["wait", "--for=condition=Established", `crd/widgets.${group}`, "--timeout=60s"]);
    await current.applyGit();
    expect((await current.scanReport()).code).toBe(0);

    await kubectl([
      "-n",
      current.namespace,
      "patch",
      `widgets.${group}`,
      "blue",
      "--type=merge",
      "-p",
      '{"spec":{"size":5}}',
    ]);
    const { report } = await current.scanReport();
    expect(report.resources.find((r) => r.kind === "Widget")?.changes).toEqual([
      expect.objectContaining({ path: "/spec/size", desired: 3, live: 5, manager: "kubectl-patch" }),
    ]);
  });

  it("scans a kustomize overlay and points each object at the file that declares it", async () => {
    current = scenario({
      target: { path: "overlays/prod", render: "auto" },
      files: {
        "base/kustomization.yaml": "resources: [config.yaml]\n",
        "base/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n",
        "overlays/prod/kustomization.yaml": "resources: [../../base]\nnamePrefix: prod-\n",
      },
    });
    await current.applyGit();
    const clean = await current.scanReport();
    expect(clean.code).toBe(0);
    expect(clean.report.resources[0]).toMatchObject({
      name: "prod-settings",
      source: { file: "base/config.yaml", document: 0 },
    });
    expect(clean.report.resources[0]).not.toHaveProperty("live");

    await kubectl([
      "-n",
      current.namespace,
      "patch",
      "configmap",
      "prod-settings",
      "-p",
      '{"data":{"LOG_LEVEL":"debug"}}',
    ]);
    const { report } = await current.scanReport();
    expect(report.resources[0]?.changes).toEqual([
      expect.objectContaining({ path: "/data/LOG_LEVEL", desired: "info", live: "debug" }),
    ]);
  });

  it("scans a helm chart rendered with its values file", async () => {
    current = scenario({
      target: { path: "chart", render: "helm", helm: { valuesFiles: ["values-prod.yaml"] } },
      files: {
        "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
        "chart/values.yaml": "replicas: 1\n",
        "chart/values-prod.yaml": "replicas: 3\n",
        "chart/templates/config.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\ndata:\n  replicas: {{ .Values.replicas | quote }}\n",
      },
    });
    await current.applyGit();
    const clean = await current.scanReport();
    expect(clean.code).toBe(0);
    expect(clean.report.resources[0]).toMatchObject({
      name: `${current.target}-config`,
      source: { file: "chart/templates/config.yaml", document: 0 },
    });
  });
});
