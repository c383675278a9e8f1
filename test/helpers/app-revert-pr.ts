// A revert-mode target's pull request, opened and merged as in production: the
// worker's first scan opens PR #1 with the record file, and merging it lands
// the record on main and delivers GitHub's `pull_request.closed` webhook.
//
//   const ctx = await openRevertPr({ github, files, target: { prune: true }, drift: () => kubectl([...]) });
//   const merge = await mergeRevertPr(ctx);   // the merge job, once settled
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { type FakeRepo, fakeRepo } from "./app-github.ts";
import { expectPrComments } from "./app-github-comments.ts";
import { type AppHarness, commitRepo, openAppHarness } from "./app-harness.ts";
import { pullRequestClosedPayload } from "./app-payloads.ts";
import { kubeconfigPath } from "./cluster.ts";
import type { GitHubMock } from "./github-mock.ts";
import { type Scenario, scenario } from "./scenario.ts";

export interface RevertPr {
  github: GitHubMock;
  s: Scenario;
  h: AppHarness;
  gh: FakeRepo;
  configText: string;
  first: Awaited<ReturnType<AppHarness["settled"]>>[number] | undefined;
}

/** Git applied, then `drift` made, then the first scan run: the revert PR #1 is open. `onOpen` gets the parts for cleanup before anything can fail. */
export async function openRevertPr(params: {
  github: GitHubMock;
  files: Record<string, string>;
  target?: Record<string, unknown>;
  drift: (s: Scenario) => Promise<unknown>;
  onOpen: (parts: { s: Scenario; h?: AppHarness }) => void;
  /** Run once the harness is open, before the first scan: to keep what the worker reads in its Redis. */
  beforeScan?: (h: AppHarness) => Promise<unknown>;
}): Promise<RevertPr> {
  const { github } = params;
  const s = scenario({ files: params.files, target: { mode: "revert", ...params.target } });
  params.onOpen({ s });
  const configText = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
  await s.applyGit();
  await params.drift(s);
  const commit = await commitRepo(s.repoDir);
  const h = await openAppHarness({
    clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
  });
  params.onOpen({ s, h });
  await params.beforeScan?.(h);
  const gh = fakeRepo({ github, head: commit });
  gh.expectToken();
  gh.expectHead();
  gh.expectTarball();
  gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
  gh.expectCheckRuns({ list: 1, create: 1 });
  const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
  await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
  h.startWorkers(["test"]);
  const [first] = await h.settled("test", 1);
  expect(first?.failedReason).toBeUndefined();
  return { github, s, h, gh, configText, first };
}

/** Merges PR #1 as GitHub would (its record file lands on main in a new commit, the webhook is delivered); returns the merge job once `count` jobs have settled. */
export async function mergeRevertPr(ctx: RevertPr, count = 2) {
  const { github, s, h, gh, configText } = ctx;
  const file = `.undrift/revert/${s.target}.yaml`;
  const recordText = gh.state.trees[0]?.tree[0]?.content ?? "";
  s.write({ [file]: recordText });
  const merged = await commitRepo(s.repoDir);
  gh.head = merged;
  const [pr] = gh.state.pulls;
  if (pr) pr.state = "closed";
  gh.expectConfig(configText, { ref: merged.sha });
  gh.expectTarball(merged);
  expectPrComments(github, gh, 1, { list: 1, create: 1 });
  const delivered = await h.deliver(
    "pull_request",
    pullRequestClosedPayload(gh, {
      number: 1,
      headRef: `undrift/revert/${s.target}`,
      merged: true,
      mergeCommitSha: merged.sha,
    }),
  );
  expect(delivered.status).toBe(200);
  return (await h.settled("test", count)).at(-1);
}
