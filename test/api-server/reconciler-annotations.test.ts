// Flux's and Argo CD's per-object annotations, against a real API server: an
// object its owners told their reconciler to leave alone is neither drift to
// `undrift scan` nor re-applied or pruned by `undrift revert --prune`; Flux's
// ssa: Merge keeps a field a person added; Argo CD's pointers ignore fields.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DriftReport, ResourceReport } from "../../src/model/types.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const configMap = (name: string, annotations: Record<string, string> = {}) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  annotations: ${JSON.stringify(annotations)}
data:
  LOG_LEVEL: info
`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

async function withObjects(files: Record<string, string>, target?: Record<string, unknown>): Promise<Scenario> {
  current = scenario({ files, ...(target ? { target } : {}) });
  await current.applyGit();
  return current;
}

function resource(report: DriftReport, name: string): ResourceReport | undefined {
  return report.resources.find((r) => r.name === name);
}

const data = async (s: Scenario, name: string) =>
  JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", name, "-o", "jsonpath={.data}"]));

describe("the reconcilers' per-object annotations", () => {
  it("scan and revert leave alone what Flux is told not to reconcile, in the cluster or in Git", async () => {
    const s = await withObjects({
      "manifests/paused.yaml": configMap("paused"),
      "manifests/pinned.yaml": configMap("pinned", { "kustomize.toolkit.fluxcd.io/reconcile": "disabled" }),
      "manifests/plain.yaml": configMap("plain"),
    });
    // During an incident someone pauses Flux on one object and changes it; another object changes unpaused.
    await kubectl([
      "-n",
      s.namespace,
      "annotate",
      "configmap",
      "paused",
      "kustomize.toolkit.fluxcd.io/reconcile=disabled",
    ]);
    for (const name of ["paused", "pinned", "plain"])
      await kubectl(["-n", s.namespace, "patch", "configmap", name, "-p", '{"data":{"LOG_LEVEL":"debug"}}']);

    const { code, report } = await s.scanJson();
    expect(code).toBe(1);
    expect(resource(report, "paused")).toMatchObject({
      status: "in-sync",
      changes: [],
      leftAlone: "annotation kustomize.toolkit.fluxcd.io/reconcile: disabled",
    });
    expect(resource(report, "pinned")).toMatchObject({ status: "in-sync", leftAlone: expect.any(String) });
    expect(resource(report, "plain")?.status).toBe("drifted");

    const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    const revert = await undrift(args);
    expect(revert.code, revert.stderr).not.toBe(2);
    expect(await data(s, "plain")).toEqual({ LOG_LEVEL: "info" });
    expect(await data(s, "paused")).toEqual({ LOG_LEVEL: "debug" });
    expect(await data(s, "pinned")).toEqual({ LOG_LEVEL: "debug" });
  });

  it("a prune keeps an orphan Argo CD ignores as extraneous or keeps on deletion, and deletes a plain one", async () => {
    const s = await withObjects(
      {
        "manifests/kept.yaml": configMap("kept"),
        "manifests/extraneous.yaml": configMap("extraneous", {
          "argocd.argoproj.io/compare-options": "IgnoreExtraneous",
        }),
        "manifests/retained.yaml": configMap("retained", { "argocd.argoproj.io/sync-options": "Delete=false" }),
        "manifests/gone.yaml": configMap("gone"),
      },
      { maxPrunePercent: 100 },
    );
    // Git stops declaring three of them.
    for (const name of ["extraneous", "retained", "gone"]) rmSync(join(s.repoDir, `manifests/${name}.yaml`));

    const { report } = await s.scanJson();
    expect(resource(report, "extraneous")).toBeUndefined();
    expect(resource(report, "retained")?.status).toBe("orphaned");
    expect(resource(report, "gone")?.status).toBe("orphaned");

    const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "--prune"];
    const revert = await undrift(args);
    expect(revert.code, revert.stderr).not.toBe(2);
    const left = await kubectl(["-n", s.namespace, "get", "configmap", "-o", "name"]);
    expect(left.split("\n").filter((l) => l.startsWith("configmap/") && !l.endsWith("kube-root-ca.crt"))).toEqual([
      "configmap/extraneous",
      "configmap/kept",
      "configmap/retained",
    ]);
  });

  it("with Flux's ssa: Merge a label a person added is theirs; a value Git sets and a person changed is drift", async () => {
    const s = await withObjects({
      "manifests/merged.yaml": configMap("merged", { "kustomize.toolkit.fluxcd.io/ssa": "Merge" }),
    });
    await kubectl(["-n", s.namespace, "label", "configmap", "merged", "team=payments"]);
    expect((await s.scanJson()).code).toBe(0);
    await kubectl(["-n", s.namespace, "patch", "configmap", "merged", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const { code, report } = await s.scanJson();
    expect(code).toBe(1);
    expect(resource(report, "merged")?.changes.map((c) => c.path)).toEqual(["/data/LOG_LEVEL"]);
  });

  it("ignores the fields Argo CD's ignore-differences-json-pointers names on the object", async () => {
    const s = await withObjects({
      "manifests/tuned.yaml": configMap("tuned", {
        "argocd.argoproj.io/ignore-differences-json-pointers": "/data/LOG_LEVEL",
      }),
    });
    await kubectl(["-n", s.namespace, "patch", "configmap", "tuned", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    expect((await s.scanJson()).code).toBe(0);
    await kubectl(["-n", s.namespace, "patch", "configmap", "tuned", "-p", '{"data":{"EXTRA":"1"}}']);
    const { report } = await s.scanJson();
    expect(resource(report, "tuned")?.changes.map((c) => c.path)).toEqual(["/data/EXTRA"]);
  });
});
