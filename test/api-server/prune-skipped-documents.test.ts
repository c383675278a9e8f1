// A target whose render skipped a document never prunes: the document could be
// the one that declares an orphan's object (a `metdata:` typo drops it), so
// `revert --prune`, even forced, deletes nothing and names the file.
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const config = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  KEY: value\n";
// Not a Kubernetes object: the render skips it.
const notes = "---\nowner: platform-team\nrunbook: https://wiki.example.com/shop\n";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

describe("revert --prune on a target with a skipped document", () => {
  it("deletes nothing, even with --force-prune, and says which document holds it back", async () => {
    current = scenario({ files: { "manifests/config.yaml": config } });
    const s = current;
    await s.applyGit();
    s.write({ "manifests/notes.yaml": notes });
    const labels = `undrift.dev/target=${s.target}`;
    await kubectl(["-n", s.namespace, "create", "configmap", "old", "--from-literal=k=v"]);
    await kubectl(["-n", s.namespace, "label", "configmap", "old", labels]);

    const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    const json = await undrift([...args, "--prune", "--force-prune", "-o", "json"]);
    expect(json.stderr).toBe("");
    const result = JSON.parse(json.stdout) as RevertResult;
    const reason =
      "the render skipped manifests/notes.yaml document 1 (not a Kubernetes object: no string apiVersion and kind); " +
      "a target with a skipped document never prunes, as the object it should declare would look like an orphan";
    expect(result.resources.filter((r) => r.kind === "ConfigMap" && r.name === "old")).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: s.namespace,
        name: "old",
        action: "skipped",
        guard: "skipped-documents",
        reason,
      },
    ]);
    expect(result.summary.deleted).toBe(0);

    const text = await undrift([...args, "--prune"]);
    expect(text.stdout).toContain(`v1 ConfigMap ${s.namespace}/old: ${reason}`);
    expect(await kubectl(["-n", s.namespace, "get", "configmap", "old", "-o", "name"])).toBe("configmap/old\n");
  });
});
