// The GitHub side of a codify scan, end to end against the real test cluster:
// the repository arrives as GitHub's tarball (made by git archive), is scanned
// and codified there, and the edits become one PR whose requests are counted
// and checked against GitHub's OpenAPI description. A second scan of the same
// drift writes nothing; a new drift updates the same PR.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { scanTarget } from "../../src/cli/run-scan.ts";
import { readRepoConfig } from "../../src/config/load-config.ts";
import { pickTarget } from "../../src/config/pick-target.ts";
import { downloadSnapshot } from "../../src/github/download-snapshot.ts";
import { ensureDriftPr } from "../../src/github/ensure-drift-pr.ts";
import { ClusterSession } from "../../src/live/cluster-session.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { renderMarkdown } from "../../src/report/render-markdown.ts";
import { codifyTarget } from "../../src/stages/codify/codify-target.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { pullReply, treeSha } from "../helpers/github/responses.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const run = promisify(execFile);
const github = useGitHubMock();
const owner = "acme";
const repo = "gitops";
const repoPath = `/repos/${owner}/${repo}`;

const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let current: Scenario | undefined;
let cacheDir: string | undefined;
afterEach(async () => {
  await current?.cleanup();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

/** Commits the scenario's repository and returns the commit with GitHub's tarball of it. */
async function commitAndArchive(repoDir: string): Promise<{ sha: string; archive: Buffer }> {
  const git = (...args: string[]) => run("git", ["-C", repoDir, ...args]);
  await git("init", "-q", "-b", "main");
  await git("add", ".");
  await git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "gitops");
  const sha = (await git("rev-parse", "HEAD")).stdout.trim();
  const out = join(repoDir, "..", `${sha}.tar.gz`);
  await git("archive", "--format=tar.gz", `--prefix=${owner}-${repo}-${sha.slice(0, 7)}/`, "-o", out, "HEAD");
  const archive = await readFile(out);
  await rm(out);
  return { sha, archive };
}

function expectTarball(sha: string, archive: Buffer) {
  const location = `/${owner}/${repo}/legacy.tar.gz/${sha}`;
  github.expect({
    method: "GET",
    path: `${repoPath}/tarball/${sha}`,
    reply: { status: 302, headers: { location: `https://codeload.github.com${location}` } },
  });
  github.expect({
    method: "GET",
    origin: "https://codeload.github.com",
    path: location,
    reply: { body: archive, headers: { "content-type": "application/x-gzip" } },
  });
}

describe("a codify PR from a scan of GitHub's tarball", () => {
  it("costs at most N+6 requests for N changed files, then nothing for the same drift", async () => {
    current = scenario({ files: { "manifests/web.yaml": web, "manifests/config.yaml": config } });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    await kubectl(["-n", s.namespace, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const { sha, archive } = await commitAndArchive(s.repoDir);
    cacheDir = await realpath(await mkdtemp(join(tmpdir(), "undrift-snapshots-")));

    expectTarball(sha, archive);
    const octokit = github.octokit();
    const snapshot = await downloadSnapshot({ octokit, owner, repo, sha, cacheDir });
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    const report = await scanTarget({ repoDir: snapshot.dir, targetName: s.target, kubeConfig });
    const repoConfig = await readRepoConfig(snapshot.dir);
    const target = pickTarget(repoConfig, s.target);
    const session = new ClusterSession(kubeConfig);
    const codified = await codifyTarget({ repoDir: snapshot.dir, config: repoConfig, target, session });
    expect(report.summary.drifted).toBe(2);
    expect(codified.files.map((f) => f.file).sort()).toEqual(["manifests/config.yaml", "manifests/web.yaml"]);

    const downloads = github.requests.length;
    const n = codified.files.length;
    let prBody = "";
    github.expect({ method: "GET", path: `${repoPath}/pulls`, reply: { body: [] } });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/trees`,
      body: (json) => {
        const tree = (json as { tree: Array<{ path: string; content?: string }> }).tree;
        return tree.every((e) => codified.files.some((f) => f.file === e.path && f.after === e.content));
      },
      reply: { status: 201, body: { sha: "1".repeat(40) } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/commits`,
      body: { parents: [sha] },
      reply: { status: 201, body: { sha: "2".repeat(40) } },
    });
    github.expect({ method: "POST", path: `${repoPath}/git/refs`, reply: { status: 201, body: {} } });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: (req) => {
        prBody = (req.json as { body: string }).body;
        return { status: 201, body: pullReply({ number: 7, head: "undrift/codify/x" }) };
      },
    });
    github.expect({ method: "POST", path: `${repoPath}/issues/7/labels`, reply: { body: [] } });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls/7/requested_reviewers`,
      reply: { status: 201, body: {} },
    });
    const pr = {
      octokit,
      owner,
      repo,
      target: s.target,
      mode: "codify" as const,
      fingerprint: report.fingerprint,
      base: { branch: "main", sha, treeSha },
      files: codified.files,
      title: `undrift: codify drift of ${s.target}`,
      body: renderMarkdown(report, { maxLength: 60_000 })[0] ?? "",
      labels: ["drift"],
      reviewers: ["alice"],
    };
    const created = await ensureDriftPr(pr);
    const prRequests = github.requests.length - downloads;
    expect(created.action).toBe("created");
    expect(prRequests).toBeLessThanOrEqual(n + 6);
    // Measured: list, tree (both files inline), commit, branch, PR, labels, reviewers.
    expect(github.requests.slice(downloads).map((r) => r.operationId)).toEqual([
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "issues/add-labels",
      "pulls/request-reviewers",
    ]);
    expect(prBody).toContain("replicas");

    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      reply: { body: [pullReply({ number: 7, head: `undrift/codify/${s.target}`, body: prBody })] },
    });
    const writesBefore = github.writes().length;
    expect((await ensureDriftPr(pr)).action).toBe("unchanged");
    expect(github.writes()).toHaveLength(writesBefore);
  });
});
