// Orphans in a revert pull request's record: live objects with the target's
// tracking label that Git no longer declares. Merging the pull request prunes
// the ones it approved when the target's `prune` is true, with every guard of
// the CLI's prune (opt-out annotations among them), and says in its comment
// what was deleted and what was not, and why; an orphan that appeared after
// the pull request opened is reported, not deleted. With `prune: false` they
// are only listed.
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { AppHarness } from "../helpers/app-harness.ts";
import { mergeRevertPr, openRevertPr } from "../helpers/app-revert-pr.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { kubectl, type Scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const settings = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: info
`;
const flags = settings.replace("settings", "flags");
const metrics = settings.replace("settings", "metrics");

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

/** A labelled ConfigMap that Git does not declare: an orphan of the scenario's target. */
function orphan(scenario: Scenario, name: string, annotations: Record<string, string> = {}) {
  const object = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: scenario.namespace, labels: { "undrift.dev/target": scenario.target }, annotations },
    data: { made: "by hand" },
  };
  return kubectl(["apply", "-f", "-"], JSON.stringify(object));
}

const exists = (ns: string, name: string) =>
  kubectl(["-n", ns, "get", "configmap", name, "--ignore-not-found", "-o", "name"]).then((out) => out.trim() !== "");

function openPr(target: Record<string, unknown>) {
  return openRevertPr({
    github,
    files: { "manifests/settings.yaml": settings, "manifests/flags.yaml": flags, "manifests/metrics.yaml": metrics },
    target,
    drift: async (scenario) => {
      await orphan(scenario, "hotfix");
      await orphan(scenario, "keep", { "undrift.dev/prune": "disabled" });
    },
    onOpen: (parts) => {
      s = parts.s;
      h = parts.h;
    },
  });
}

describe("merging a revert pull request with orphans", () => {
  it("prunes the orphans it approved when prune is true, keeps an opted-out one, and reports one that came later", async () => {
    const ctx = await openPr({ prune: true });
    const { s, gh } = ctx;
    const record = parse(gh.state.trees[0]?.tree[0]?.content ?? "");
    expect(record.objects.map((o: { name: string; status: string }) => [o.name, o.status])).toEqual([
      ["hotfix", "orphaned"],
      ["keep", "orphaned"],
    ]);
    expect(gh.state.pulls[0]?.body).toContain(
      `\`v1 ConfigMap ${s.namespace}/hotfix\` (orphaned, prune it if the target's \`prune\` is true and no prune guard holds it back)`,
    );
    // After the pull request opened: another orphan, which nobody reviewed.
    await orphan(s, "late");

    const merge = await mergeRevertPr(ctx);
    expect(merge?.failedReason).toBeUndefined();
    expect(merge?.returnvalue).toMatchObject({
      outcome: "applied",
      applied: [`deleted v1 ConfigMap ${s.namespace}/hotfix`],
      skipped: [`v1 ConfigMap ${s.namespace}/late`, `v1 ConfigMap ${s.namespace}/keep`],
    });
    expect(await exists(s.namespace, "hotfix")).toBe(false);
    expect(await exists(s.namespace, "keep")).toBe(true);
    expect(await exists(s.namespace, "late")).toBe(true);
    const comment = gh.state.comments[0]?.body ?? "";
    expect(comment).toContain(
      `**Pruned** (orphans this pull request approved)\n\n- \`v1 ConfigMap ${s.namespace}/hotfix\`: deleted`,
    );
    expect(comment).toContain(
      `- \`v1 ConfigMap ${s.namespace}/keep\` (orphaned): not pruned: opted out by annotation undrift.dev/prune: disabled`,
    );
    expect(comment).toContain(
      `- \`v1 ConfigMap ${s.namespace}/late\` (orphaned): became an orphan after the pull request was opened; not pruned unseen`,
    );
  });

  it("only lists the orphans when the target's prune is off", async () => {
    const ctx = await openPr({ prune: false });
    const { s, gh } = ctx;
    const merge = await mergeRevertPr(ctx);
    expect(merge?.returnvalue).toMatchObject({
      applied: [],
      skipped: [`v1 ConfigMap ${s.namespace}/hotfix`, `v1 ConfigMap ${s.namespace}/keep`],
    });
    expect(await exists(s.namespace, "hotfix")).toBe(true);
    const comment = gh.state.comments[0]?.body ?? "";
    expect(comment).not.toContain("**Pruned**");
    expect(comment).toContain(
      `- \`v1 ConfigMap ${s.namespace}/hotfix\` (orphaned): not pruned: prune is off: listed only`,
    );
  });
});
