// revert keeps the live values of fields ignoreDifferences exempts, as Argo CD's
// RespectIgnoreDifferences does: an HPA-managed replicas count is not scaled back
// to Git's when only the image drifted. undrift owns replicas from its first
// apply, so leaving the field out of the apply would remove it: it is sent live.
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { singleWebDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const ignoreReplicas = [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }];

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

async function drift(s: Scenario) {
  await kubectl(["-n", s.namespace, "scale", "deploy/web", "--replicas=3"]);
  await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.28"]);
}

async function revert(s: Scenario, extra: string[] = []): Promise<RevertResult> {
  const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const run = await undrift([...args, ...extra]);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as RevertResult;
}

const live = async (s: Scenario) =>
  (
    await kubectl([
      "-n",
      s.namespace,
      "get",
      "deploy/web",
      "-o",
      "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}",
    ])
  ).trim();

describe("revert with ignoreDifferences on /spec/replicas", () => {
  it("reverts the image and keeps the scaled replicas, on every revert, and says so in the dry run", async () => {
    current = scenario({
      files: { "manifests/web.yaml": singleWebDeployment },
      target: { ignoreDifferences: ignoreReplicas },
    });
    const s = current;
    await s.applyGit();
    await drift(s);

    const dry = await revert(s, ["--dry-run"]);
    const note = "kept live /spec/replicas (ignoreDifferences)";
    expect(dry.resources).toMatchObject([{ name: "web", action: "configured", reason: note }]);
    expect(await live(s)).toBe("3 nginx:1.28");

    const first = await revert(s);
    expect(first.resources).toMatchObject([{ name: "web", action: "configured", reason: note }]);
    expect(await live(s)).toBe("3 nginx:1.27");

    // undrift owns replicas after its revert: a second round must keep them too. Its record is asserted first, so
    // a revert that did not apply (once, in a full CI run: the image stayed 1.28) says why.
    await drift(s);
    const second = await revert(s);
    expect(second.resources, JSON.stringify(second.resources)).toMatchObject([
      { name: "web", action: "configured", reason: note },
    ]);
    expect(await live(s)).toBe("3 nginx:1.27");
    expect((await s.scanJson()).code).toBe(0);
  });

  it("applies all of Git when the target sets respectIgnoreDifferences: false", async () => {
    current = scenario({
      files: { "manifests/web.yaml": singleWebDeployment },
      target: { ignoreDifferences: ignoreReplicas, respectIgnoreDifferences: false },
    });
    const s = current;
    await s.applyGit();
    await drift(s);
    const result = await revert(s);
    expect(result.resources[0]?.reason).toBeUndefined();
    expect(await live(s)).toBe("1 nginx:1.27");
  });
});
