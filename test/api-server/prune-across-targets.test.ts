// undrift revert --prune with two targets of one repository whose tracking
// selectors overlap: target "app" tracks `team=x`, and target "api" declares
// objects that carry `team=x` too. The other target's objects are not app's
// orphans: a prune of app keeps them and says which target declares them, and
// while the other target does not render, nothing is pruned at all.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: $NS\n  labels:\n    team: x\ndata:\n  KEY: value\n`;
const apiFile = ["api-1", "api-2", "api-3"].map(configMap).join("---\n");

/** Target app (selector team=x, every prune allowed by share) and target api, both applied; api's objects match app's selector. */
async function twoTargets(): Promise<{ s: Scenario; api: string }> {
  const s = scenario({ files: { "manifests/app.yaml": configMap("app-config"), "api/config.yaml": apiFile } });
  current = s;
  const api = uniqueName("api");
  const targets = [
    {
      name: s.target,
      cluster: "test",
      path: "manifests",
      namespace: s.namespace,
      tracking: { selector: "team=x" },
      maxPrunePercent: 100,
    },
    { name: api, cluster: "test", path: "api", namespace: s.namespace },
  ];
  s.write({ ".github/undrift.yml": stringify({ targets }) });
  await s.applyGit();
  // The api target's objects, applied as its applier would.
  const yaml = apiFile.replaceAll("$NS", s.namespace);
  await kubectl(["apply", "--server-side", "--field-manager=undrift", "-f", "-"], yaml);
  // A true orphan of app: it carries team=x and no target declares it.
  await kubectl(["-n", s.namespace, "create", "configmap", "app-old"]);
  await kubectl(["-n", s.namespace, "label", "configmap", "app-old", "team=x"]);
  return { s, api };
}

async function revertPrune(s: Scenario): Promise<{ code: number; result: RevertResult }> {
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const run = await undrift([...args, "--prune"]);
  if (run.code === 2) throw new Error(`revert failed: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as RevertResult };
}

const exists = async (s: Scenario, name: string) =>
  kubectl(["-n", s.namespace, "get", "configmap", name, "-o", "name"]).then(
    () => true,
    () => false,
  );

const pruneRecords = (result: RevertResult) =>
  Object.fromEntries(
    result.resources
      .filter((r) => r.action === "deleted" || r.guard !== undefined)
      .map((r) => [r.name, { action: r.action, guard: r.guard, reason: r.reason }]),
  );

describe("undrift revert --prune with overlapping tracking selectors", () => {
  it("keeps the objects another target declares, naming it, and prunes only its own orphan", async () => {
    const { s, api } = await twoTargets();
    const { code, result } = await revertPrune(s);
    const kept = { action: "skipped", guard: "declared-elsewhere", reason: `target ${api} declares it` };
    expect(pruneRecords(result)).toEqual({
      "app-old": { action: "deleted" },
      "api-1": kept,
      "api-2": kept,
      "api-3": kept,
    });
    // Another target's objects are that target's, not something the revert left undone.
    expect(code).toBe(0);
    for (const name of ["api-1", "api-2", "api-3"]) expect(await exists(s, name)).toBe(true);
    expect(await exists(s, "app-old")).toBe(false);
  });

  it("prunes nothing while the other target does not render, and says which target", async () => {
    const { s, api } = await twoTargets();
    s.write({ "api/broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: [not, a, map\n" });
    const { code, result } = await revertPrune(s);
    expect(code).toBe(1);
    const records = pruneRecords(result);
    expect(records["app-old"]).toMatchObject({ action: "skipped", guard: "others-unknown" });
    expect(records["app-old"]?.reason).toMatch(new RegExp(`^target ${api} could not be rendered \\(.*broken\\.yaml`));
    for (const name of ["api-1", "api-2", "api-3", "app-old"]) expect(await exists(s, name)).toBe(true);
  });
});
