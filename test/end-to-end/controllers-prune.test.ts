// Prunes that the real controllers finish. A Namespace the target tracks and Git
// dropped is an orphan that `revert --prune` refuses to delete, saying why
// (deleting it deletes everything in it), until --force-prune; then the
// namespace controller empties and removes it. A dropped Deployment is pruned at
// once, and the garbage collector then deletes the ReplicaSets and Pods it owned.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { uniqueName } from "../helpers/cluster.ts";
import { deleteNamespaces, dependents, eventually, revert, rolledOut } from "../helpers/controllers.ts";
import { singleWebDeployment } from "../helpers/manifests.ts";
import { giveOwnNode } from "../helpers/own-node.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const created: string[] = [];
let current: Scenario | undefined;
afterEach(async () => {
  await current?.cleanup();
  await deleteNamespaces([...(current ? [current.namespace] : []), ...created.splice(0)]);
  current = undefined;
});

const settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n";
const namespaceOf = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

const exists = (args: string[]) =>
  kubectl([...args, "-o", "name"]).then(
    () => true,
    () => false,
  );

function records(stdout: string) {
  return (JSON.parse(stdout) as RevertResult).resources.map((r) => ({
    object: `${r.kind}/${r.name}`,
    action: r.action,
    ...(r.guard ? { guard: r.guard } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
  }));
}

describe("pruning what the controllers finish", () => {
  it("refuses an orphaned Namespace without --force-prune, saying why; with it the namespace and its contents go", async () => {
    const extra = uniqueName("extra");
    created.push(extra);
    current = scenario({ files: { "manifests/settings.yaml": settings, "manifests/extra.yaml": namespaceOf(extra) } });
    const s = current;
    await s.applyGit();
    await giveOwnNode(extra);
    // Something of someone else's inside it, which the namespace controller must delete with it.
    await kubectl(["-n", extra, "create", "deployment", "inside", "--image=registry.example/inside:1.0"]);
    await rolledOut(extra, "inside");
    rmSync(join(s.repoDir, "manifests/extra.yaml"));

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 1 });
    expect(scan.report.resources.find((r) => r.status === "orphaned")).toMatchObject({
      kind: "Namespace",
      name: extra,
    });

    const refused = await revert(s, ["--prune", "-o", "json"]);
    expect(refused.code).toBe(1);
    expect(records(refused.stdout)).toEqual([
      { object: "ConfigMap/settings", action: "unchanged" },
      {
        object: `Namespace/${extra}`,
        action: "skipped",
        guard: "kind",
        reason: "a Namespace is pruned only with --force-prune: deleting it deletes everything in it",
      },
    ]);
    expect(await exists(["get", "namespace", extra])).toBe(true);

    const forced = await revert(s, ["--prune", "--force-prune", "-o", "json"]);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    expect(records(forced.stdout)).toEqual([
      { object: "ConfigMap/settings", action: "unchanged" },
      // The namespace controller empties it first: the Namespace is still there, so it is not called deleted.
      {
        object: `Namespace/${extra}`,
        action: "deleting",
        reason: "deletion pending: the Namespace is terminating (everything in it is deleted first)",
      },
    ]);
    await eventually("the namespace controller to delete the Namespace and its Deployment", async () =>
      (await exists(["get", "namespace", extra])) ? undefined : true,
    );
  }, 150_000);

  it("prunes an orphaned Deployment at once, and the garbage collector deletes its ReplicaSets and Pods", async () => {
    current = scenario({
      files: { "manifests/settings.yaml": settings, "manifests/web.yaml": singleWebDeployment },
      target: { maxPrunePercent: 50 },
    });
    const s = current;
    await s.applyGit();
    await rolledOut(s.namespace, "web");
    const before = await dependents(s.namespace);
    expect([before.replicaSets.length, before.pods.length]).toEqual([1, 1]);
    rmSync(join(s.repoDir, "manifests/web.yaml"));

    const result = await revert(s, ["--prune", "-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(records(result.stdout)).toEqual([
      { object: "ConfigMap/settings", action: "unchanged" },
      { object: "Deployment/web", action: "deleted" },
    ]);
    await eventually("the garbage collector to delete the Deployment's ReplicaSet and Pod", async () => {
      const left = await dependents(s.namespace);
      return left.replicaSets.length + left.pods.length === 0 ? true : undefined;
    });
    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);
  }, 150_000);
});
