// Pushes to the default branch, as GitHub delivers them: a push that touches a
// target's folder, or a kustomize base outside it that the target uses, scans
// that target at the pushed commit; a push that breaks
// `.github/undrift.yml` gets a failing `undrift/config` check run on that
// commit naming file, line and field, and the schedulers of the last valid
// config stay; pushes elsewhere cost nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { MAX_CONFIG_BYTES } from "../../src/config/parse-yaml-config.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { listScanSchedulers } from "../../src/queue/list-scan-schedulers.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { lastValidConfig } from "../../src/state/last-valid-config.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { expectFileReads, expectTree } from "../helpers/app-github-tree.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload, pushPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

async function installed() {
  s = scenario({ files: { "manifests/config.yaml": config } });
  const commit = await commitRepo(s.repoDir);
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const gh = fakeRepo({ github, head: commit });
  const configText = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
  gh.expectToken();
  gh.expectConfig(configText);
  expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
  // The install scan is not what these tests look at.
  for (const job of await h.redis.queues.scan("test").getWaiting()) await job.remove();
  return { s, h, gh, commit, configText };
}

describe("a push to the default branch", () => {
  it("scans a target whose folder it changed, at the pushed commit, once however often GitHub delivers it", async () => {
    const { s, h, gh, commit, configText } = await installed();
    const after = "a".repeat(40);
    gh.expectConfig(configText, { ref: after, times: 2 });
    const push = pushPayload(gh, { before: commit.sha, after, modified: ["manifests/config.yaml"] });
    expect((await h.deliver("push", push)).status).toBe(200);
    expect((await h.deliver("push", push)).status).toBe(200);
    const jobs = await h.redis.queues.scan("test").getWaiting();
    expect(jobs.map((job) => [job.id, job.data.reason, job.data.revision])).toEqual([
      [`acme/gitops#${s.target}@${after}`, "push", after],
    ]);
  });

  it("scans nothing when the push changed no target's folder, and ignores other branches entirely", async () => {
    const { s, h, gh, commit, configText } = await installed();
    const after = "b".repeat(40);
    gh.expectConfig(configText, { ref: after });
    // A file outside every folder: the commit's files are listed to see whether a kustomize target uses it; none is.
    await expectTree(github, gh, { repoDir: s.repoDir, sha: after });
    expect(
      (await h.deliver("push", pushPayload(gh, { before: commit.sha, after, modified: ["README.md"] }))).status,
    ).toBe(200);
    const other = pushPayload(gh, {
      before: commit.sha,
      after,
      modified: ["manifests/config.yaml"],
      ref: "refs/heads/dev",
    });
    const requests = github.requests.length;
    expect((await h.deliver("push", other)).status).toBe(200);
    expect(github.requests.length).toBe(requests);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
  });

  it("scans a kustomize target when a push changes only a shared base it uses, and not a target that does not use it", async () => {
    const web = uniqueName("web");
    s = scenario({
      files: {
        "manifests/config.yaml": config,
        "bases/web/kustomization.yaml": "resources: [config.yaml]\n",
        "bases/web/config.yaml": config,
        "clusters/prod/kustomization.yaml": "resources: [../../bases/web]\nnamePrefix: prod-\n",
        "docs/README.md": "How we deploy.\n",
      },
    });
    const configText = stringify({
      targets: [
        { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace },
        { name: web, cluster: "test", path: "clusters/prod", namespace: s.namespace },
      ],
    });
    s.write({ ".github/undrift.yml": configText });
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(configText);
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    for (const job of await h.redis.queues.scan("test").getWaiting()) await job.remove();

    s.write({ "bases/web/config.yaml": config.replace("info", "debug") });
    const next = await commitRepo(s.repoDir);
    const mark = github.requests.length;
    gh.expectConfig(configText, { ref: next.sha });
    await expectTree(github, gh, { repoDir: s.repoDir, sha: next.sha });
    await expectFileReads(github, gh, {
      repoDir: s.repoDir,
      sha: next.sha,
      files: ["clusters/prod/kustomization.yaml", "bases/web/kustomization.yaml"],
    });
    const push = pushPayload(gh, { before: commit.sha, after: next.sha, modified: ["bases/web/config.yaml"] });
    expect((await h.deliver("push", push)).status).toBe(200);
    expect((await h.redis.queues.scan("test").getWaiting()).map((job) => [job.id, job.data.reason])).toEqual([
      [`acme/gitops#${web}@${next.sha}`, "push"],
    ]);
    // The kustomizations are read one by one; no tarball is downloaded to decide.
    expect(github.requests.slice(mark).map((r) => r.operationId)).toEqual([
      "repos/get-content",
      "git/get-tree",
      "repos/get-content",
      "repos/get-content",
    ]);

    // A file no target renders from scans nothing.
    s.write({ "docs/README.md": "How we deploy, again.\n" });
    const docs = await commitRepo(s.repoDir);
    gh.expectConfig(configText, { ref: docs.sha });
    await expectTree(github, gh, { repoDir: s.repoDir, sha: docs.sha });
    await expectFileReads(github, gh, {
      repoDir: s.repoDir,
      sha: docs.sha,
      files: ["clusters/prod/kustomization.yaml", "bases/web/kustomization.yaml"],
    });
    const readme = pushPayload(gh, { before: next.sha, after: docs.sha, modified: ["docs/README.md"] });
    expect((await h.deliver("push", readme)).status).toBe(200);
    expect((await h.redis.queues.scan("test").getWaiting()).map((job) => job.id)).toEqual([
      `acme/gitops#${web}@${next.sha}`,
    ]);
  });

  it("fails an invalid config on the pushed commit, naming file, line and field; the previous config stays in force", async () => {
    const { s, h, gh } = await installed();
    const before = await listScanSchedulers(h.redis.queues);
    const invalid = stringify({
      schedule: "5m",
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, mode: "destroy" }],
    });
    const line = invalid.split("\n").findIndex((l) => l.includes("mode: destroy")) + 1;
    s.write({ ".github/undrift.yml": invalid });
    const broken = await commitRepo(s.repoDir);
    gh.head = broken;
    // Once through Probot's loader, once as text for the line.
    gh.expectConfig(invalid, { ref: broken.sha, times: 2 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const push = pushPayload(gh, { before: "c".repeat(40), after: broken.sha, modified: [".github/undrift.yml"] });
    expect((await h.deliver("push", push)).status).toBe(200);

    expect(gh.state.checkRuns).toEqual([
      expect.objectContaining({
        name: "undrift/config",
        head_sha: broken.sha,
        conclusion: "failure",
        output: expect.objectContaining({
          title: `.github/undrift.yml:${line}: targets[0].mode: expected one of warn, codify, revert, heal`,
          annotations_count: 1,
        }),
        annotations: [
          expect.objectContaining({ path: ".github/undrift.yml", start_line: line, annotation_level: "failure" }),
        ],
      }),
    ]);
    expect(await listScanSchedulers(h.redis.queues)).toEqual(before);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.at(-1)).toMatchObject({ event: "config-invalid", actor: "alice", revision: broken.sha });

    // The next scheduled scan reads the broken file at the head, and scans with the last valid config instead.
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...before[0]!.job!, reason: "schedule" } });
    h.startWorkers(["test"]);
    const [scan] = await h.settled("test", 1);
    expect(scan?.failedReason).toBeUndefined();
    const check = gh.state.checkRuns.find((run) => run.name === `undrift/${s.target}`);
    expect(check?.head_sha).toBe(broken.sha);
    expect(check?.output.summary).toContain("`.github/undrift.yml` at this commit is invalid (.github/undrift.yml:");
    expect(check?.output.summary).toContain("this scan used the repository's last valid config");
  });

  it("fails a config over 1 MiB on the pushed commit as the CLI does, and keeps the last valid config", async () => {
    const { s, h, gh } = await installed();
    const before = await listScanSchedulers(h.redis.queues);
    const kept = lastValidConfig({ redis: h.redis.redis, prefix: h.redis.prefix });
    const valid = await kept.get("acme/gitops");
    expect(valid?.targets.map((t) => t.name)).toEqual([s.target]);
    // Valid YAML whose parsed data is small: the bulk is a comment, which Probot's loader never shows.
    const large = `${stringify({
      schedule: "5m",
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace }],
    })}# ${"x".repeat(MAX_CONFIG_BYTES)}\n`;
    s.write({ ".github/undrift.yml": large });
    const broken = await commitRepo(s.repoDir);
    gh.head = broken;
    gh.expectConfig(large, { ref: broken.sha });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const push = pushPayload(gh, { before: "c".repeat(40), after: broken.sha, modified: [".github/undrift.yml"] });
    expect((await h.deliver("push", push)).status).toBe(200);

    const title = `.github/undrift.yml: ${Buffer.byteLength(large)} bytes; the limit is ${MAX_CONFIG_BYTES} bytes`;
    expect(gh.state.checkRuns).toEqual([
      expect.objectContaining({
        name: "undrift/config",
        head_sha: broken.sha,
        conclusion: "failure",
        output: expect.objectContaining({ title }),
      }),
    ]);
    expect(await listScanSchedulers(h.redis.queues)).toEqual(before);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    expect(await kept.get("acme/gitops")).toEqual(valid);
  });

  it("applies a valid config change: a changed schedule updates the scheduler and scans at once", async () => {
    const { s, h, gh } = await installed();
    const changed = stringify({
      schedule: "5m",
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace }],
    });
    s.write({ ".github/undrift.yml": changed });
    const next = await commitRepo(s.repoDir);
    gh.expectConfig(changed, { ref: next.sha });
    const push = pushPayload(gh, { before: "d".repeat(40), after: next.sha, modified: [".github/undrift.yml"] });
    expect((await h.deliver("push", push)).status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => [x.id, x.every])).toEqual([
      [`acme/gitops#${s.target}`, 5 * 60_000],
    ]);
    expect((await h.redis.queues.scan("test").getWaiting()).map((job) => job.data.reason)).toEqual(["config"]);
  });
});
