// A preview too long for one comment: it is split into numbered parts, each
// with its marker, never inside a code fence or a <details> block; the next
// push edits the parts in place, and when the preview shrinks, the parts left
// over are deleted, so no part is ever posted twice.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fakeRepo } from "../helpers/app-github.ts";
import { fakePullRequest } from "../helpers/app-github-preview.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

/** `count` ConfigMaps in one file, each with a long value so the diffs are long. */
function configMaps(count: number, version: string): string {
  return Array.from(
    { length: count },
    (_, i) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: big-${String(i).padStart(3, "0")}
data:
  notes: "${version} ${"lorem ipsum dolor sit amet ".repeat(4)}"
`,
  ).join("---\n");
}

function fences(part: string): number {
  return part.split("\n").filter((line) => line.startsWith("```")).length;
}

describe("a huge pull request preview", () => {
  it("splits into parts with balanced fences, and deletes the parts left over when it shrinks", async () => {
    s = scenario({ files: { "manifests/big.yaml": configMaps(120, "v1") } });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/big.yaml": configMaps(120, "v2") });
    const head = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: base });
    const pr = fakePullRequest({ github, gh, number: 9, base, head });
    const config = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");

    // 1. Opened: every object changes, so the comment needs more than one part.
    gh.expectToken();
    gh.expectConfig(config, { ref: head.sha });
    pr.expectCompare();
    gh.expectTarball(head);
    gh.expectTarball(base);
    pr.expectComments({ list: 1, create: 2 });
    gh.head = head;
    gh.expectCheckRuns({ list: 1, create: 1 });
    await h.deliver("pull_request", pr.payload("opened"));
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(pr.comments.length).toBe(2);
    pr.comments.forEach((comment, i) => {
      expect(comment.body).toMatch(new RegExp(`^<!-- undrift:preview pr=9 part=${i + 1} digest=[0-9a-f]+ -->\n`));
      expect(comment.body.length).toBeLessThanOrEqual(65_536);
      expect(fences(comment.body) % 2).toBe(0);
      expect(comment.body.split("<details>").length).toBe(comment.body.split("</details>").length);
    });
    expect(pr.comments.map((c) => c.body).join("")).toContain("big-119");

    // 2. A push that changes one object: part 1 is edited, part 2 is deleted, nothing is posted.
    s.write({ "manifests/big.yaml": configMaps(120, "v1").replace(/v1 lorem/, "v3 lorem") });
    pr.head = await commitRepo(s.repoDir);
    gh.expectConfig(config, { ref: pr.head.sha });
    pr.expectCompare();
    gh.expectTarball(pr.head);
    pr.expectComments({ list: 1, update: 1, delete: 1 });
    gh.head = pr.head;
    gh.expectCheckRuns({ list: 1, create: 1 });
    const mark = github.requests.length;
    await h.deliver("pull_request", pr.payload("synchronize"));
    const jobs = await h.settled("test", 2);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({
      actions: ["updated preview part 1 on #9", "deleted preview part 2 on #9", "created check run undrift/preview"],
    });
    expect(pr.comments).toHaveLength(1);
    expect(pr.comments[0]?.body).toContain("big-000");
    expect(pr.comments[0]?.body).not.toContain("big-001</code>");
    expect(github.requests.slice(mark).filter((r) => r.operationId === "issues/create-comment")).toEqual([]);
  });
});
