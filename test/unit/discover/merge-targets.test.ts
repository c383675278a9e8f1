import { describe, expect, it } from "vitest";
import type { TargetConfig } from "../../../src/config/schema.ts";
import { targetSchema } from "../../../src/config/target-schema.ts";
import { mergeTargets } from "../../../src/discover/merge-targets.ts";

const target = (fields: Record<string, unknown>): TargetConfig =>
  targetSchema.parse({ cluster: "prod", path: ".", ...fields });

describe("configured and discovered targets", () => {
  const discovered: TargetConfig = {
    ...target({ name: "ks-flux-system-apps", path: "apps", fieldManager: "kustomize-controller", prune: "preview" }),
    origin: { from: "flux", kind: "Kustomization", namespace: "flux-system", name: "apps" },
  };

  it("are one list, the configured first", () => {
    const merged = mergeTargets({ configured: [target({ name: "infra" })], discovered: [discovered] });
    expect(merged.targets.map((t) => t.name)).toEqual(["infra", "ks-flux-system-apps"]);
    expect(merged.problems).toEqual([]);
  });

  it("a configured entry of a discovered name sets mode, prune and rules; the rest follows the object", () => {
    const written = target({
      name: "ks-flux-system-apps",
      path: "elsewhere",
      mode: "revert",
      prune: true,
      fieldManager: "undrift",
      rules: [{ match: { kinds: ["Secret"] }, mode: "warn" }],
    });
    const [merged] = mergeTargets({ configured: [written], discovered: [discovered] }).targets;
    expect(merged).toMatchObject({
      name: "ks-flux-system-apps",
      path: "apps",
      fieldManager: "kustomize-controller",
      mode: "revert",
      prune: true,
      rules: [{ match: { kinds: ["Secret"] }, mode: "warn" }],
      origin: { from: "flux" },
    });
  });

  it("keeps a configured target of another cluster and says why the discovered one is left out", () => {
    const written = target({ name: "ks-flux-system-apps", cluster: "staging" });
    const merged = mergeTargets({ configured: [written], discovered: [discovered] });
    expect(merged.targets).toEqual([written]);
    expect(merged.problems).toEqual([
      'target "ks-flux-system-apps" is configured for cluster staging and discovered on prod; the configured one is kept',
    ]);
  });
});
