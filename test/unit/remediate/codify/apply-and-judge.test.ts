// Plans applied in memory, rolled back one object at a time, and judged by
// the render they produce: the steps between planning and writing.
import { describe, expect, it } from "vitest";
import type { Pairing } from "../../../../src/drift/build-report.ts";
import type { ComparePolicy } from "../../../../src/drift/compare-object.ts";
import type { DesiredObject, KubeObject } from "../../../../src/model/types.ts";
import { applyPlans } from "../../../../src/remediate/codify/apply-plans.ts";
import { judgeRender } from "../../../../src/remediate/codify/judge-render.ts";
import type { FileOp, ObjectPlan } from "../../../../src/remediate/codify/object-plan.ts";

const configMap = (name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop" },
  data,
});
const desired = (object: KubeObject, file = "app/config.yaml", document = 0): DesiredObject => ({
  object,
  source: { file, document },
});

function plan(name: string, status: ObjectPlan["status"], pairing: Pairing, ops: FileOp[]): ObjectPlan {
  return {
    id: `/ConfigMap/shop/${name}`,
    ref: { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name },
    status,
    pairing,
    ops,
  };
}

const inTarget = (file: string) => file.startsWith("app/");

describe("applyPlans", () => {
  const originals = new Map<string, string | undefined>([
    [
      "app/config.yaml",
      "# two objects\n---\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: '1'\n---\nkind: ConfigMap\nmetadata: {name: b}\n",
    ],
    ["app/old.yaml", "kind: ConfigMap\nmetadata: {name: old}\n"],
    ["app/kustomization.yaml", "resources:\n  - config.yaml\n  - old.yaml # legacy\n"],
  ]);
  const kustomizations = ["app/kustomization.yaml"];

  it("rolls back only the object whose edit fails, and says why", () => {
    const good = plan("a", "drifted", {}, [
      { kind: "set", file: "app/config.yaml", document: 0, path: ["f:data", "f:x"], value: "2" },
    ]);
    const bad = plan("b", "drifted", {}, [
      { kind: "set", file: "app/config.yaml", document: 1, path: ["f:data", "f:y"], value: "3" },
      { kind: "set", file: "app/config.yaml", document: 7, path: ["f:data", "f:z"], value: "4" },
    ]);
    const { files, failures } = applyPlans({ plans: [good, bad], originals, kustomizations, inTarget });
    expect(files.get("app/config.yaml")).toBe(originals.get("app/config.yaml")!.replace("x: '1'", "x: '2'"));
    expect([...failures]).toEqual([["/ConfigMap/shop/b", "app/config.yaml: has no document 7"]]);
  });

  it("removes an emptied file and its entry in the kustomization's resources", () => {
    const gone = plan("old", "missing", {}, [{ kind: "remove-document", file: "app/old.yaml", document: 0 }]);
    const { files, failures } = applyPlans({ plans: [gone], originals, kustomizations, inTarget });
    expect(failures.size).toBe(0);
    expect(files.get("app/old.yaml")).toBeUndefined();
    expect(files.get("app/kustomization.yaml")).toBe("resources:\n  - config.yaml\n");
  });

  it("removes documents last first, so two objects of one file both go", () => {
    const a = plan("a", "missing", {}, [{ kind: "remove-document", file: "app/config.yaml", document: 0 }]);
    const b = plan("b", "missing", {}, [{ kind: "remove-document", file: "app/config.yaml", document: 1 }]);
    const { files } = applyPlans({ plans: [a, b], originals, kustomizations, inTarget });
    expect(files.get("app/config.yaml")).toBeUndefined();
    expect(files.get("app/kustomization.yaml")).toBe("resources:\n  - old.yaml # legacy\n");
  });

  it("never writes outside the target's folder", () => {
    const outside = plan("a", "drifted", {}, [
      { kind: "set", file: "base/config.yaml", document: 0, path: ["f:a"], value: 1 },
    ]);
    expect(() => applyPlans({ plans: [outside], originals, kustomizations, inTarget })).toThrow(
      "codify: refusing to write base/config.yaml, outside the target's folder",
    );
  });
});

describe("judgeRender", () => {
  const policy: ComparePolicy = {
    fieldManager: "undrift",
    isHuman: () => false,
    noiseFilters: [],
    ignoreRules: [],
    jq: { paths: () => [] },
  };
  const live = configMap("a", { x: "2" });
  const original = [desired(configMap("a", { x: "1" })), desired(configMap("other", { y: "1" }))];
  const drifted: Pairing = {
    desired: original[0]!,
    live,
    comparison: {
      changes: [{ path: "/data/x", desired: "1", live: "2" }],
      needsDryRun: false,
      needsDefaults: false,
      live,
      wouldBe: live,
    },
  };
  const edit = plan("a", "drifted", drifted, []);

  it("keeps an edit whose drift is gone, and nothing else changed", () => {
    const rendered = [desired(configMap("a", { x: "2" })), original[1]!];
    expect(judgeRender({ plans: [edit], rendered, original, policy })).toEqual({ reasons: new Map(), collateral: [] });
  });

  it("says where the drift is still there, or where the edit made it differ anew", () => {
    const still = judgeRender({ plans: [edit], rendered: original, original, policy });
    expect(still.reasons.get(edit.id)).toBe("the edit did not make the drift disappear (still differs at /data/x)");
    const more = [desired(configMap("a", { x: "2", extra: "1" })), original[1]!];
    expect(judgeRender({ plans: [edit], rendered: more, original, policy }).reasons.get(edit.id)).toBe(
      "the edit would make it differ at /data/extra",
    );
  });

  it("names an object no plan meant to change whose render changed", () => {
    const rendered = [desired(configMap("a", { x: "2" })), desired(configMap("other", { y: "changed" }))];
    expect(judgeRender({ plans: [edit], rendered, original, policy }).collateral).toEqual(["v1 ConfigMap shop/other"]);
  });

  it("requires a missing object gone from Git and an orphan declared as it runs", () => {
    const missing = plan("a", "missing", { desired: original[0]! }, []);
    expect(judgeRender({ plans: [missing], rendered: original, original, policy }).reasons.get(missing.id)).toBe(
      "the edited files still declare it",
    );
    const stray = configMap("stray", { z: "1" });
    const orphan = { ...plan("stray", "orphaned", { live: stray }, []), id: "/ConfigMap/shop/stray" };
    const rendered = [...original, desired(configMap("stray", { z: "2" }))];
    expect(judgeRender({ plans: [orphan], rendered, original, policy }).reasons.get(orphan.id)).toBe(
      "the new manifest still differs from the live object at /data/z",
    );
  });
});
