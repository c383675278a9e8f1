// A target that brings its own CustomResourceDefinition and a custom resource of
// it, on a cluster that has never seen the kind: revert applies the CRD, waits
// until it is Established and its kind is served, then applies the resource.

import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { widgetCrd } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

// The CRDs stay, as scan-kinds' do: a kind deleted while another test's scan lists it answers
// "404 page not found" as plain text, which KubeClient cannot decode, and that scan would fail.
let current: Scenario | undefined;
let crdName: string | undefined;
afterEach(() => current?.cleanup());

/** Files named so that render order puts the custom resource before its CRD and Namespace. */
function crdScenario(): { s: Scenario; group: string } {
  const group = `${uniqueName("g")}.example.com`;
  crdName = `widgets.${group}`;
  const s = scenario({
    files: {
      "manifests/a-widget.yaml": `apiVersion: ${group}/v1\nkind: Widget\nmetadata:\n  name: first\nspec:\n  size: 3\n`,
      "manifests/b-namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NS\n",
      "manifests/c-crd.yaml": widgetCrd(group),
    },
  });
  current = s;
  return { s, group };
}

async function revert(s: Scenario, extra: string[] = []): Promise<{ code: number; result: RevertResult }> {
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const run = await undrift([...args, ...extra]);
  if (run.code === 2) throw new Error(`revert failed: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as RevertResult };
}

describe("undrift revert with a new CustomResourceDefinition", () => {
  it("creates the CRD, waits until it is Established, then creates its custom resource", async () => {
    const { s, group } = crdScenario();
    const { code, result } = await revert(s);
    expect(code).toBe(0);
    expect(result.resources.map((r) => [r.kind, r.action, r.health?.status, r.health?.waited])).toEqual([
      ["CustomResourceDefinition", "created", "healthy", true],
      ["Namespace", "created", "healthy", true],
      ["Widget", "created", "healthy", false],
    ]);
    const widget = JSON.parse(await kubectl(["-n", s.namespace, "get", `widgets.${group}`, "first", "-o", "json"]));
    expect(widget.spec).toEqual({ size: 3 });
    expect((await s.scanJson()).code).toBe(0);
  });

  it("in a dry run, checks the CRD with the server and records its resource as the real run would", async () => {
    const { s } = crdScenario();
    const dry = await revert(s, ["--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.result.resources.map((r) => [r.kind, r.action])).toEqual([
      ["CustomResourceDefinition", "created"],
      ["Namespace", "created"],
      ["Widget", "created"],
    ]);
    expect(dry.result.resources[2]?.reason).toBe(
      `not checked by the server: Widget is served only once CustomResourceDefinition ${crdName} is applied`,
    );
    await expect(kubectl(["get", "crd", crdName!])).rejects.toThrow(/NotFound/);
    await expect(kubectl(["get", "namespace", s.namespace])).rejects.toThrow(/NotFound/);
  });
});
