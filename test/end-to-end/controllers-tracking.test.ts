// A tracking label that reaches the pod template, as it does with kustomize's
// `labels` (includeTemplates: true) and with a Helm chart tracked by Argo CD's
// `app.kubernetes.io/instance`: the real Deployment controller copies it onto its
// ReplicaSets and their Pods, and the EndpointSlice controller onto a Service's
// slices. They carry the label but belong to their controllers, so the scan is in
// sync with zero orphans and `revert --prune`, even with --force-prune, deletes
// none of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { codify, dependents, identities, revert, rolledOut, targetConfig } from "../helpers/controllers.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
// cleanup deletes the scenario's namespace, and with it the pods the controllers made.
afterEach(() => current?.cleanup());

const workload = (name: string, labels: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 2
  selector:
    matchLabels: {${labels}}
  template:
    metadata:
      labels: {${labels}}
    spec:
      containers:
        - name: web
          image: registry.example/web:1.0
---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  selector: {${labels}}
  ports:
    - port: 80
`;

/** What a user checks after the rollout: in sync, no orphans, and neither prune touches a ReplicaSet or Pod. */
async function expectTrackedRolloutLeftAlone(s: Scenario, deployment: string, label: [string, string]) {
  await s.applyGit();
  await rolledOut(s.namespace, deployment);
  const before = await dependents(s.namespace);
  // The premise: the controllers' objects carry the tracking label, so a LIST by the selector returns them.
  expect(before.replicaSets).toHaveLength(1);
  expect(before.pods).toHaveLength(2);
  for (const o of [...before.replicaSets, ...before.pods]) expect(o.metadata.labels[label[0]]).toBe(label[1]);

  const scan = await s.scanJson();
  expect(scan.report.summary).toEqual({ inSync: 2, drifted: 0, missing: 0, orphaned: 0 });
  expect(scan.report.resources.map((r) => `${r.kind}/${r.name}`).sort()).toEqual([
    `Deployment/${deployment}`,
    `Service/${deployment}`,
  ]);
  expect(scan.code).toBe(0);

  for (const flags of [["--prune"], ["--prune", "--force-prune"]]) {
    const result = await revert(s, [...flags, "-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const records = (JSON.parse(result.stdout) as RevertResult).resources;
    expect(records.map((r) => `${r.kind}/${r.name}:${r.action}`).sort()).toEqual([
      `Deployment/${deployment}:unchanged`,
      `Service/${deployment}:unchanged`,
    ]);
  }
  const after = await dependents(s.namespace);
  expect(identities(after.replicaSets)).toEqual(identities(before.replicaSets));
  expect(identities(after.pods)).toEqual(identities(before.pods));
}

/** Every file under the target's folder, by path, to show that codify wrote nothing. */
function targetFiles(s: Scenario): Record<string, string> {
  const dir = join(s.repoDir, "manifests");
  const names = readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name), "utf8")]));
}

describe("a tracking label on pod templates, after the real rollout", () => {
  it("kustomize `labels` with includeTemplates: in sync, zero orphans, prune deletes nothing of the controllers'", async () => {
    current = scenario({ files: { "manifests/web.yaml": workload("web", "app: web") } });
    const s = current;
    s.write({
      "manifests/kustomization.yaml": `resources: [web.yaml]
labels:
  - pairs: {undrift.dev/target: ${s.target}}
    includeTemplates: true
`,
    });
    await expectTrackedRolloutLeftAlone(s, "web", ["undrift.dev/target", s.target]);

    // Nor does codify turn the labelled ReplicaSets and Pods into manifests.
    const files = targetFiles(s);
    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("nothing to codify");
    expect(targetFiles(s)).toEqual(files);
  }, 150_000);

  it("a Helm chart tracked by app.kubernetes.io/instance: in sync, zero orphans, prune deletes nothing of the controllers'", async () => {
    current = scenario({ files: {} });
    const s = current;
    const labels = "app.kubernetes.io/name: web, app.kubernetes.io/instance: {{ .Release.Name }}";
    s.write({
      ".github/undrift.yml": targetConfig(s, {
        render: "helm",
        tracking: { selector: `app.kubernetes.io/instance=${s.target}` },
      }),
      "manifests/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
      "manifests/templates/web.yaml": workload("{{ .Release.Name }}-web", labels).replaceAll(
        "metadata:\n  name: {{ .Release.Name }}-web\n",
        `metadata:\n  name: {{ .Release.Name }}-web\n  labels: {${labels}, helm.sh/chart: web-0.1.0}\n`,
      ),
    });
    await expectTrackedRolloutLeftAlone(s, `${s.target}-web`, ["app.kubernetes.io/instance", s.target]);
  }, 150_000);
});
