// What a CLI run loads, recorded by a preloaded module hook: `--version` and `--help` load no
// package at all, and a scan never loads the GitHub App's server (probot, BullMQ, Redis,
// Octokit), client-node's generated API or jq. A heavy import creeping back fails here.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { closedPort, closedPortKubeconfig } from "../../helpers/cluster.ts";
import { tempRepo } from "../desired/temp-repo.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const recorder = resolve(root, "test/helpers/record-loads.ts");
const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * The URLs `undrift args` loaded, and its exit code. REDIS_URL is left out unless `redisUrl` gives one
 * (CI exports it): with it a scan reads who changed what from Redis, and loads Redis' client for that.
 */
async function loadsOf(
  args: string[],
  options: { redisUrl?: string } = {},
): Promise<{ code: number; stderr: string; urls: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), "undrift-loads-"));
  scratch.push(dir);
  const file = join(dir, "loads.txt");
  await writeFile(file, "");
  const { REDIS_URL: _r, ...rest } = process.env;
  const env = {
    ...rest,
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    UNDRIFT_RECORD_LOADS: file,
    NO_COLOR: "1",
  };
  const argv = ["--import", recorder, resolve(root, "bin/undrift.js"), ...args];
  const result = await run(process.execPath, argv, { cwd: root, env }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code?: number; stderr?: string }) => ({ code: e.code ?? -1, stderr: e.stderr ?? "" }),
  );
  return { ...result, urls: [...new Set((await readFile(file, "utf8")).split("\n").filter(Boolean))] };
}

/** The packages among `urls` (`probot`, `@octokit/core`), and undrift's own folders (`src/live`). */
function packagesOf(urls: string[]): string[] {
  const names = urls.map((url) => url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1]).filter(Boolean);
  return [...new Set(names as string[])].sort();
}

function srcFoldersOf(urls: string[]): string[] {
  const folders = urls.map((url) => url.match(/\/src\/([^/]+)\//)?.[1]).filter(Boolean);
  return [...new Set(folders as string[])].sort();
}

const serverPackages = /^(probot|bullmq|ioredis|octokit|@octokit\/.*)$/;

describe("what a CLI run loads", { timeout: 60_000 }, () => {
  it.each(["--version", "--help", "scan --help"])("undrift %s loads no package", async (line) => {
    const { code, urls } = await loadsOf(line.split(" "));
    expect(code).toBe(0);
    expect(packagesOf(urls)).toEqual([]);
    expect(srcFoldersOf(urls)).toEqual(["cli", "model"]);
  });

  it("undrift scan loads neither the server's packages nor client-node's generated API", async () => {
    const repo = await tempRepo({
      ".github/undrift.yml": "targets:\n- {name: app, cluster: test, path: manifests, namespace: default}\n",
      "manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: '1'}\n",
    });
    const kubeconfig = join(repo, "kubeconfig");
    await writeFile(kubeconfig, await closedPortKubeconfig());
    const { code, stderr, urls } = await loadsOf([
      "scan",
      "--repo",
      repo,
      "--target",
      "app",
      "--kubeconfig",
      kubeconfig,
    ]);
    // The scan got as far as the cluster: the kubeconfig was loaded and applied to a request.
    expect({ code, stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(/is unreachable/) });
    const packages = packagesOf(urls);
    expect(packages).toContain("@kubernetes/client-node");
    // undici is client-node's fetch, jq-web (WebAssembly) only for a config with jq rules.
    expect(packages.filter((name) => serverPackages.test(name) || /^(undici|jq-web)$/.test(name))).toEqual([]);
    const clientNode = urls.filter((url) => url.includes("/@kubernetes/client-node/"));
    expect(clientNode.filter((url) => /\/dist\/(index\.js|gen\/index\.js|api\.js)$/.test(url))).toEqual([]);
    expect(srcFoldersOf(urls).filter((folder) => /^(app|queue|github|state|worker)$/.test(folder))).toEqual([]);
    // Node's bundled undici (fetch, WebSocket) comes with an ES import of node:http: nothing here fetches.
    expect(urls).toContain("node-internal:internal/tls/wrap");
    expect(urls.filter((url) => url.startsWith("node-internal:internal/deps/undici"))).toEqual([]);
  });

  it("undrift scan with REDIS_URL loads Redis' client for the records, and still not the server", async () => {
    const repo = await tempRepo({
      ".github/undrift.yml": "targets:\n- {name: app, cluster: test, path: manifests, namespace: default}\n",
      "manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: '1'}\n",
    });
    const kubeconfig = join(repo, "kubeconfig");
    await writeFile(kubeconfig, await closedPortKubeconfig());
    const args = ["scan", "--repo", repo, "--target", "app", "--kubeconfig", kubeconfig];
    const { code, stderr, urls } = await loadsOf(args, { redisUrl: `redis://127.0.0.1:${await closedPort()}` });
    // It ended on the unreachable cluster, before any report needed a record: no word of Redis.
    expect({ code, stderr }).toMatchObject({ code: 2, stderr: expect.not.stringMatching(/REDIS_URL/) });
    const packages = packagesOf(urls);
    expect(packages).toContain("ioredis");
    expect(packages.filter((name) => /^(probot|bullmq|octokit|@octokit\/.*)$/.test(name))).toEqual([]);
    expect(srcFoldersOf(urls).filter((folder) => /^(app|github|worker)$/.test(folder))).toEqual([]);
  });
});
