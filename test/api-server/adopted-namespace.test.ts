// A Namespace made with `kubectl create ns` and then declared in Git: the
// kubernetes.io/metadata.name label the API server puts on every Namespace is
// owned by kubectl-create, yet no person chose it. It is not drift, and codify
// does not write it into Git.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const namespace = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NS\n";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

describe("a Namespace created with kubectl create ns, adopted by a target", () => {
  it("scans in sync, and codify writes nothing", async () => {
    current = scenario({ files: { "manifests/namespace.yaml": namespace } });
    const s = current;
    // applyGit creates the namespace with `kubectl create namespace` first, then applies Git over it.
    await s.applyGit();
    const labels = await kubectl(["get", "namespace", s.namespace, "-o", "jsonpath={.metadata.labels}"]);
    expect(JSON.parse(labels)).toMatchObject({ "kubernetes.io/metadata.name": s.namespace });

    const scan = await s.scanReport();
    expect(scan.report.resources.map((r) => [r.kind, r.status, r.changes.map((c) => c.path)])).toEqual([
      ["Namespace", "in-sync", []],
    ]);
    expect(scan.code).toBe(0);

    const codify = await undrift([
      "codify",
      "--repo",
      s.repoDir,
      "--target",
      s.target,
      "--kubeconfig",
      kubeconfigPath(),
    ]);
    expect(codify.stderr).toBe("");
    expect(codify.code).toBe(0);
    expect(codify.stdout).toContain("nothing to codify");
    expect(readFileSync(join(s.repoDir, "manifests/namespace.yaml"), "utf8")).toBe(
      namespace.replace("$NS", s.namespace),
    );
  });
});
