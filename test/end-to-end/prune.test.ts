// undrift revert --prune against a real API server: only tracked orphans are
// deleted, and only when no guard holds (opt-outs, empty render, the share of the
// target, Namespaces); a dry run deletes nothing. The cluster runs the namespace
// controller and the garbage collector, so deletes finish as they do in production.
import { afterEach, describe, expect, it } from "vitest";
import { isDeletion, type ObjectRecord, type RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { eventually } from "../helpers/eventually.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const configMaps = ["a", "b", "c", "d", "e", "f"]
  .map((name) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep-${name}\ndata:\n  KEY: value\n`)
  .join("---\n");

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

/** A target of six ConfigMaps, applied. */
async function applied(files: Record<string, string> = { "manifests/config.yaml": configMaps }): Promise<Scenario> {
  current = scenario({ files });
  await current.applyGit();
  return current;
}

/** A ConfigMap made by hand in the target's namespace, with the given labels and annotations. */
async function stray(
  s: Scenario,
  name: string,
  meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
) {
  const labels = { "undrift.dev/target": s.target, ...meta.labels };
  const object = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: s.namespace, labels, annotations: meta.annotations },
  };
  await kubectl(["create", "-f", "-"], JSON.stringify(object));
}

async function revert(s: Scenario, extra: string[]): Promise<{ code: number; result: RevertResult }> {
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const run = await undrift([...args, ...extra]);
  if (run.code === 2) throw new Error(`revert failed: ${run.stderr}`);
  return { code: run.code, result: JSON.parse(run.stdout) as RevertResult };
}

const pruneRecords = (result: RevertResult) =>
  result.resources.filter((r) => isDeletion(r) || r.guard !== undefined || r.action === "failed");

const exists = async (s: Scenario, name: string) =>
  kubectl(["-n", s.namespace, "get", "configmap", name, "-o", "name"]).then(
    () => true,
    () => false,
  );

function only(records: ObjectRecord[]): ObjectRecord {
  expect(records).toHaveLength(1);
  return records[0]!;
}

describe("undrift revert --prune", () => {
  it("deletes a tracked orphan, and lists orphans as skipped without --prune", async () => {
    const s = await applied();
    await stray(s, "old");
    const listed = await revert(s, []);
    expect(listed.code).toBe(0);
    expect(only(pruneRecords(listed.result))).toMatchObject({
      name: "old",
      action: "skipped",
      guard: "not-requested",
      reason: "prune not requested",
    });
    expect(await exists(s, "old")).toBe(true);

    const pruned = await revert(s, ["--prune"]);
    expect(pruned.code).toBe(0);
    expect(only(pruneRecords(pruned.result))).toMatchObject({ name: "old", action: "deleted" });
    expect(await exists(s, "old")).toBe(false);
    expect((await s.scanJson()).code).toBe(0);
  });

  it("never deletes objects without the target's tracking label", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "create", "configmap", "unlabelled"]);
    await stray(s, "other-target", { labels: { "undrift.dev/target": uniqueName("other") } });
    const { code, result } = await revert(s, ["--prune", "--force-prune"]);
    expect(code).toBe(0);
    expect(pruneRecords(result)).toEqual([]);
    expect(await exists(s, "unlabelled")).toBe(true);
    expect(await exists(s, "other-target")).toBe(true);
  });

  it("honours each opt-out: undrift's annotation, Flux's label, Argo CD's sync option, and exits 0 for them", async () => {
    const s = await applied();
    await stray(s, "undrift-opt-out", { annotations: { "undrift.dev/prune": "disabled" } });
    await stray(s, "flux-opt-out", { labels: { "kustomize.toolkit.fluxcd.io/prune": "disabled" } });
    await stray(s, "argo-opt-out", { annotations: { "argocd.argoproj.io/sync-options": "Prune=false" } });
    // Opted out is asked to stay: left as Flux leaves it, exit 0 with or without --prune.
    const plain = await revert(s, []);
    expect(plain.code).toBe(0);
    const { code, result } = await revert(s, ["--prune", "--force-prune"]);
    expect(code).toBe(0);
    const reasons = Object.fromEntries(pruneRecords(result).map((r) => [r.name, [r.action, r.reason]]));
    expect(reasons).toEqual({
      "undrift-opt-out": ["skipped", "opted out by annotation undrift.dev/prune: disabled"],
      "flux-opt-out": ["skipped", "opted out by label kustomize.toolkit.fluxcd.io/prune: disabled"],
      "argo-opt-out": ["skipped", "opted out by annotation argocd.argoproj.io/sync-options: Prune=false"],
    });
    for (const name of Object.keys(reasons)) expect(await exists(s, name)).toBe(true);
  });

  it("refuses to prune anything when the target renders no objects", async () => {
    const s = await applied();
    s.write({ "manifests/config.yaml": "# every object was removed from this file\n" });
    const { code, result } = await revert(s, ["--prune", "--force-prune"]);
    expect(code).toBe(1);
    const records = pruneRecords(result);
    expect(records).toHaveLength(6);
    for (const r of records) expect(r).toMatchObject({ action: "skipped", guard: "empty-render" });
    expect(await exists(s, "keep-a")).toBe(true);
  });

  it("refuses to prune more than maxPrunePercent of the target without --force-prune", async () => {
    const s = await applied();
    for (const name of ["old-1", "old-2", "old-3"]) await stray(s, name);
    const refused = await revert(s, ["--prune"]);
    expect(refused.code).toBe(1);
    const records = pruneRecords(refused.result);
    expect(records.map((r) => [r.name, r.guard])).toEqual([
      ["old-1", "max-percent"],
      ["old-2", "max-percent"],
      ["old-3", "max-percent"],
    ]);
    expect(records[0]?.reason).toBe(
      "pruning 3 of 9 tracked objects (33%) is more than maxPrunePercent 30%; --force-prune prunes them anyway",
    );
    expect(await exists(s, "old-1")).toBe(true);

    const forced = await revert(s, ["--prune", "--force-prune"]);
    expect(forced.code).toBe(0);
    expect(pruneRecords(forced.result).map((r) => r.action)).toEqual(["deleted", "deleted", "deleted"]);
    expect(await exists(s, "old-1")).toBe(false);
  });

  it("prunes a Namespace only with --force-prune", async () => {
    const s = await applied();
    const namespace = uniqueName("orphan-ns");
    await kubectl(
      ["create", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: namespace, labels: { "undrift.dev/target": s.target } },
      }),
    );

    const refused = await revert(s, ["--prune"]);
    expect(refused.code).toBe(1);
    expect(only(pruneRecords(refused.result))).toMatchObject({
      kind: "Namespace",
      name: namespace,
      action: "skipped",
      guard: "kind",
      reason: "a Namespace is pruned only with --force-prune: deleting it deletes everything in it",
    });
    expect(JSON.parse(await kubectl(["get", "namespace", namespace, "-o", "json"])).status.phase).toBe("Active");

    const forced = await revert(s, ["--prune", "--force-prune"]);
    expect(forced.code).toBe(0);
    // Terminating until the namespace controller has emptied it: deleting, not yet deleted.
    expect(only(pruneRecords(forced.result))).toMatchObject({
      kind: "Namespace",
      name: namespace,
      action: "deleting",
      reason: "deletion pending: the Namespace is terminating (everything in it is deleted first)",
    });
    // The namespace controller empties it and the Namespace goes, as in any cluster.
    await eventually("the pruned Namespace to finish terminating", async () =>
      kubectl(["get", "namespace", namespace, "-o", "name"]).then(
        () => undefined,
        (error: { stderr?: string }) => (String(error.stderr).includes("NotFound") ? true : undefined),
      ),
    );
  });

  it("deletes with the propagation policy asked for", async () => {
    const s = await applied();
    await stray(s, "old");
    // An untracked dependent that a finalizer of its own holds: foreground deletion keeps its owner until it goes.
    const owner = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "old", "-o", "json"]));
    const hold = "undrift.dev/test-hold";
    const dependent = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "old-dependent",
        namespace: s.namespace,
        finalizers: [hold],
        ownerReferences: [
          { apiVersion: "v1", kind: "ConfigMap", name: "old", uid: owner.metadata.uid, blockOwnerDeletion: true },
        ],
      },
    };
    await kubectl(["create", "-f", "-"], JSON.stringify(dependent));
    const { code } = await revert(s, ["--prune", "--propagation", "foreground"]);
    expect(code).toBe(0);
    // The garbage collector deletes the dependent first; the owner waits, marked, on foregroundDeletion.
    const held = await eventually("the garbage collector to delete the dependent", async () => {
      const live = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "old-dependent", "-o", "json"]));
      return live.metadata.deletionTimestamp ? live : undefined;
    });
    expect(held.metadata.finalizers).toEqual([hold]);
    const old = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "old", "-o", "json"]));
    expect(old.metadata.finalizers).toEqual(["foregroundDeletion"]);
    expect(old.metadata.deletionTimestamp).toBeDefined();
    // Once the dependent is released, both go.
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "configmap",
      "old-dependent",
      "--type=json",
      "-p",
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    await eventually("the owner to go after its dependent", async () => ((await exists(s, "old")) ? undefined : true));
  });

  it("reports an orphan a finalizer holds as deleting, not deleted, on every revert until it is gone", async () => {
    const s = await applied();
    const hold = "example.com/hold";
    await kubectl(
      ["create", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: "held",
          namespace: s.namespace,
          labels: { "undrift.dev/target": s.target },
          finalizers: [hold],
        },
      }),
    );
    const release = () =>
      kubectl([
        "-n",
        s.namespace,
        "patch",
        "configmap",
        "held",
        "--type=json",
        "-p",
        '[{"op":"remove","path":"/metadata/finalizers"}]',
      ]);
    try {
      const dry = await revert(s, ["--prune", "--dry-run"]);
      expect(only(pruneRecords(dry.result))).toMatchObject({
        name: "held",
        action: "deleting",
        reason: `deletion pending: finalizer ${hold} holds it until its controller removes it`,
      });

      const first = await revert(s, ["--prune"]);
      expect(first.code).toBe(0);
      expect(only(pruneRecords(first.result))).toMatchObject({
        name: "held",
        action: "deleting",
        reason: `deletion pending: finalizer ${hold} holds it until its controller removes it`,
      });
      expect(first.result.summary).toMatchObject({ deleted: 0, deleting: 1 });
      const marked = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "held", "-o", "json"]));
      expect(marked.metadata.deletionTimestamp).toBeDefined();

      // Still there on the next revert: marked already, so it is not deleted again, and still not called deleted.
      const second = await revert(s, ["--prune"]);
      expect(second.code).toBe(0);
      expect(only(pruneRecords(second.result))).toMatchObject({
        name: "held",
        action: "deleting",
        reason: `already being deleted since ${marked.metadata.deletionTimestamp}, not deleted again: finalizer ${hold} holds it until its controller removes it`,
      });
    } finally {
      await release().catch(() => undefined);
    }
    await eventually("the released orphan to go", async () => ((await exists(s, "held")) ? undefined : true));
  });

  it("deletes nothing in a dry run, and records what the real run does", async () => {
    const s = await applied();
    await stray(s, "old");
    const before = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "old", "-o", "json"])).metadata
      .resourceVersion;
    const dry = await revert(s, ["--prune", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(only(pruneRecords(dry.result))).toMatchObject({ name: "old", action: "deleted" });
    const after = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "old", "-o", "json"]));
    expect(after.metadata.resourceVersion).toBe(before);
    expect(after.metadata.deletionTimestamp).toBeUndefined();

    const real = await revert(s, ["--prune"]);
    expect(real.result.summary).toEqual(dry.result.summary);
    expect(await exists(s, "old")).toBe(false);
  });
});
