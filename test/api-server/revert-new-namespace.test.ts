// A new target that declares its own Namespace: a server-side dry run cannot create
// anything inside a namespace that does not exist yet, so `revert --dry-run` records
// those objects as the real run would (created), and says the server did not check them.

import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

function newNamespaceScenario(): Scenario {
  current = scenario({
    files: {
      "manifests/a-config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n",
      "manifests/b-namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NS\n",
      "manifests/c-web.yaml": webDeployment,
    },
  });
  return current;
}

async function revert(s: Scenario, extra: string[] = []): Promise<{ code: number; result: RevertResult }> {
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const run = await undrift([...args, ...extra]);
  if (run.code === 2) throw new Error(`revert failed: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as RevertResult };
}

describe("undrift revert --dry-run of a target that creates its own Namespace", () => {
  it("records the objects inside it as created, unchecked by the server, and creates nothing", async () => {
    const s = newNamespaceScenario();
    const dry = await revert(s, ["--dry-run"]);
    expect(dry.result.resources.map((r) => [r.kind, r.name, r.action, r.reason])).toEqual([
      ["Namespace", s.namespace, "created", undefined],
      [
        "ConfigMap",
        "settings",
        "created",
        `not checked by the server: its namespace ${s.namespace} is created by this revert`,
      ],
      [
        "Deployment",
        "web",
        "created",
        `not checked by the server: its namespace ${s.namespace} is created by this revert`,
      ],
    ]);
    expect(dry.code).toBe(0);
    await expect(kubectl(["get", "namespace", s.namespace])).rejects.toThrow(/NotFound/);
  });

  it("once the namespace exists, the server checks its objects again", async () => {
    const s = newNamespaceScenario();
    await kubectl(["create", "namespace", s.namespace]);
    const dry = await revert(s, ["--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.result.resources.map((r) => [r.kind, r.action, r.reason])).toEqual([
      ["Namespace", "configured", undefined],
      ["ConfigMap", "created", undefined],
      ["Deployment", "created", undefined],
    ]);
    await expect(kubectl(["-n", s.namespace, "get", "configmap", "settings"])).rejects.toThrow(/NotFound/);
  });
});
