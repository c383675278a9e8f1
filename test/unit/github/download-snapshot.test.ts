import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { downloadSnapshot } from "../../../src/github/download-snapshot.ts";
import { pruneSnapshotCache, snapshotPaths } from "../../../src/github/snapshot-cache.ts";
import { SnapshotError } from "../../../src/github/snapshot-error.ts";
import { headSha, otherSha, owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { type TarSpec, tarball } from "../../helpers/github/tar-writer.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const codeload = "https://codeload.github.com";
let cacheDir: string;

beforeEach(async () => {
  cacheDir = await realpath(await mkdtemp(join(tmpdir(), "undrift-snapshots-")));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

/** GitHub's answer to a tarball request: a redirect to codeload, which sends the archive. */
function expectTarball(sha: string, entries: TarSpec[], headers: Record<string, string> = {}) {
  const location = `/${owner}/${repo}/legacy.tar.gz/${sha}`;
  github.expect({
    method: "GET",
    path: `${repoPath}/tarball/${sha}`,
    reply: { status: 302, headers: { location: codeload + location } },
  });
  github.expect({
    method: "GET",
    origin: codeload,
    path: location,
    reply: { body: tarball(entries, { commit: sha }), headers: { "content-type": "application/x-gzip", ...headers } },
  });
}

const top = (sha: string) => `${owner}-${repo}-${sha.slice(0, 7)}`;
const tree = (sha: string): TarSpec[] => [
  { path: `${top(sha)}/`, type: "dir" },
  { path: `${top(sha)}/infra/app.yaml`, content: `revision: ${sha}\n` },
];

describe("downloadSnapshot", () => {
  it("downloads the tree at a commit once, then serves it from the cache without a request", async () => {
    expectTarball(headSha, tree(headSha));
    const first = await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir });
    expect(first).toMatchObject({ sha: headSha, cached: false, files: 1 });
    expect(first.dir).toBe(join(cacheDir, owner, repo, headSha));
    expect(await readFile(join(first.dir, "infra/app.yaml"), "utf8")).toBe(`revision: ${headSha}\n`);
    expect(github.requests.filter((r) => r.origin === "https://api.github.com")).toHaveLength(1);

    const again = await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir });
    expect(again).toEqual({ ...first, cached: true });
    expect(github.requests).toHaveLength(2);
  });

  it("shares one download between callers asking for the same commit at once", async () => {
    expectTarball(headSha, tree(headSha));
    const octokit = github.octokit();
    const [a, b] = await Promise.all([
      downloadSnapshot({ octokit, owner, repo, sha: headSha, cacheDir }),
      downloadSnapshot({ octokit, owner, repo, sha: headSha, cacheDir }),
    ]);
    expect(a.dir).toBe(b.dir);
    expect(github.requests).toHaveLength(2);
  });

  it("keeps nothing of a refused archive, and says which commit it was", async () => {
    expectTarball(headSha, [
      ...tree(headSha),
      { path: `${top(headSha)}/evil`, type: "symlink", linkTarget: "/etc/passwd" },
    ]);
    const error = await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toBe(
      'acme/gitops@4b825dc: repository archive refused: evil: a symbolic link to "/etc/passwd", outside the tree',
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("refuses an archive over the size limit, from its Content-Length or as it streams", async () => {
    expectTarball(headSha, tree(headSha), { "content-length": "999999999" });
    await expect(
      downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir, maxArchiveBytes: 1000 }),
    ).rejects.toMatchObject({ problem: "too-large" });
    expectTarball(otherSha, [
      ...tree(otherSha),
      { path: `${top(otherSha)}/noise`, content: randomBytes(2000).toString("hex") },
    ]);
    const streamed = await downloadSnapshot({
      octokit: github.octokit(),
      owner,
      repo,
      sha: otherSha,
      cacheDir,
      maxArchiveBytes: 300,
    }).catch((e: unknown) => e);
    expect((streamed as Error).message).toMatch(/the archive is more than the 300 bytes allowed/);
  });

  it("refuses anything but a full commit SHA before any request", async () => {
    await expect(downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: "main", cacheDir })).rejects.toThrow(
      'acme/gitops: "main" is not a full commit SHA',
    );
    await expect(
      downloadSnapshot({ octokit: github.octokit(), owner: "..", repo, sha: headSha, cacheDir }),
    ).rejects.toThrow(RangeError);
    expect(github.requests).toEqual([]);
  });

  it("classifies a failed download as a GitHub error the queue can retry", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/tarball/${headSha}`,
      reply: { status: 503, body: { message: "busy" } },
    });
    const error = await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "GitHubError", kind: "transient", retryable: true });
  });
});

describe("the snapshot cache", () => {
  async function fakeSnapshot(sha: string, bytes: number, usedSecondsAgo: number) {
    const paths = snapshotPaths({ cacheDir, owner, repo, sha });
    await mkdir(paths.dir, { recursive: true });
    await writeFile(paths.meta, JSON.stringify({ bytes, files: 1 }));
    const at = new Date(Date.now() - usedSecondsAgo * 1000);
    await utimes(paths.meta, at, at);
    return paths.dir;
  }

  it("removes the least recently used snapshots until the rest fit the bound", async () => {
    const oldest = await fakeSnapshot("a".repeat(40), 600, 3000);
    const middle = await fakeSnapshot("b".repeat(40), 600, 2000);
    const newest = await fakeSnapshot("c".repeat(40), 600, 1000);
    const { removed } = await pruneSnapshotCache({ cacheDir, maxBytes: 1300, graceMs: 0 });
    expect(removed).toEqual([oldest]);
    const left = await readdir(join(cacheDir, owner, repo));
    expect(left.sort()).toEqual([
      `${"b".repeat(40)}`,
      `${"b".repeat(40)}.json`,
      `${"c".repeat(40)}`,
      `${"c".repeat(40)}.json`,
    ]);
    expect([middle, newest]).toHaveLength(2);
  });

  it("keeps a snapshot used within the grace period, which a scan may still be reading", async () => {
    await fakeSnapshot("a".repeat(40), 600, 10);
    await fakeSnapshot("b".repeat(40), 600, 5);
    expect((await pruneSnapshotCache({ cacheDir, maxBytes: 100, graceMs: 60_000 })).removed).toEqual([]);
  });

  it("marks a snapshot used when it is served, so a busy commit stays cached", async () => {
    expectTarball(headSha, tree(headSha));
    await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir });
    await fakeSnapshot("b".repeat(40), 10, 100);
    const paths = snapshotPaths({ cacheDir, owner, repo, sha: headSha });
    const past = new Date(Date.now() - 500_000);
    await utimes(paths.meta, past, past);
    await downloadSnapshot({ octokit: github.octokit(), owner, repo, sha: headSha, cacheDir });
    const { removed } = await pruneSnapshotCache({ cacheDir, maxBytes: 60, graceMs: 0 });
    expect(removed).toEqual([join(cacheDir, owner, repo, "b".repeat(40))]);
  });
});
