// The package as a user installs it: `npm pack`, then `npm install -g` of the tarball into a
// scratch prefix, then the installed `undrift` and `kubectl undrift` on Node.js 24 and 22,
// outside the checkout, with none of its dev dependencies and none of its TypeScript sources.
import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriftReport } from "../../src/model/types.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, scenario } from "../helpers/scenario.ts";

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "../..");
const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
// The oldest line package.json's engines admit; the npm registry's `node` package carries its binaries.
const NODE_22 = "22.23.3";

const work = mkdtempSync(join(tmpdir(), "undrift-packed-"));
const prefix = join(work, "prefix");
let node22Bin = "";

/**
 * npm with the pinned Node.js first on the PATH (npm's own `#!/usr/bin/env node` picks it), and without
 * the npm_* variables of an enclosing `npm test`, whose npm_config_local_prefix would aim installs at the checkout.
 */
async function npm(args: string[], cwd: string): Promise<void> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: { ...env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter) },
    maxBuffer: 64 << 20,
  });
}

/** Node.js 22's binaries from the npm registry, kept between runs (the package is 60 MB to fetch). */
async function node22(): Promise<string> {
  const dir = join(tmpdir(), `undrift-node-${NODE_22}`);
  const bin = join(dir, "node_modules", "node", "bin");
  if (existsSync(join(bin, "node"))) return bin;
  // Installed beside and renamed into place, so an interrupted or concurrent run never leaves half of it there.
  const staging = mkdtempSync(`${dir}-`);
  // The `node` package fetches the binaries in its preinstall script, which npm runs only when allowed.
  writeFileSync(join(staging, "package.json"), JSON.stringify({ private: true, allowScripts: { node: true } }));
  await npm(["install", "--prefix", staging, "--prefer-offline", `node@${NODE_22}`], staging);
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another run put it there first: use theirs.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(bin, "node"))) throw error;
  }
  return bin;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command` as found on a PATH of: the given Node.js, the scratch prefix's bin, then the machine's (for kubectl). */
async function installed(nodeBin: string, command: string, args: string[]): Promise<Result> {
  const PATH = [nodeBin, join(prefix, "bin"), process.env.PATH].join(delimiter);
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: work,
      env: { ...process.env, PATH, NO_COLOR: "1" },
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  const packed = join(work, "packed");
  mkdirSync(packed);
  // Packing builds dist/ (prepack) while Node.js 22 downloads: one is CPU, the other network.
  [, node22Bin] = await Promise.all([npm(["pack", "--pack-destination", packed], repoRoot), node22()]);
  const tarball = readdirSync(packed).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack left no tarball in ${packed}`);
  // Offline when npm's cache has every package (after npm ci and one run), the registry otherwise.
  await npm(["install", "--global", "--prefix", prefix, "--prefer-offline", join(packed, tarball)], work);
  // Packing compiles the whole project and npm may reach its registry: minutes on a busy machine, unlike any
  // other hook, so it alone gets them.
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed package, installed with npm install -g", () => {
  it("holds compiled JavaScript and no TypeScript sources or dev dependencies", () => {
    const pkg = join(prefix, "lib", "node_modules", "undrift");
    expect(existsSync(join(pkg, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(join(pkg, "src"))).toBe(false);
    for (const dev of ["typescript", "vitest", "node", "@biomejs/biome"]) {
      expect(existsSync(join(pkg, "node_modules", dev)), dev).toBe(false);
    }
  });

  for (const [label, nodeBin] of [
    ["Node.js 24", () => dirname(process.execPath)],
    ["Node.js 22", () => node22Bin],
  ] as const) {
    describe(`on ${label}`, () => {
      it("says its version, checking it runs on that Node.js", async () => {
        const node = await installed(nodeBin(), "node", ["--version"]);
        expect(node.stdout).toMatch(label === "Node.js 22" ? /^v22\./ : /^v24\./);
        expect(await installed(nodeBin(), "undrift", ["--version"])).toEqual({
          code: 0,
          stdout: `undrift ${version}\n`,
          stderr: "",
        });
      });

      it("scans a repository against the cluster: finds a hand edit, ignores what a jq rule selects", async () => {
        const s = scenario({
          files: {
            "manifests/settings.yaml":
              "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: fast, owner: alice}\n",
          },
          // A jq rule runs on jq's worker thread and the render on its own: both start from dist/.
          target: { ignoreDifferences: [{ kind: "ConfigMap", jqPathExpressions: [".data.owner"] }] },
        });
        try {
          await s.applyGit();
          await kubectl([
            "-n",
            s.namespace,
            "patch",
            "configmap",
            "settings",
            "-p",
            '{"data":{"mode":"slow","owner":"bob"}}',
          ]);
          const args = ["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
          const result = await installed(nodeBin(), "undrift", [...args, "--output", "json"]);
          expect(result.stderr).toBe("");
          expect(result.code).toBe(1);
          const report = JSON.parse(result.stdout) as DriftReport;
          expect(
            report.resources.map((r) => [r.kind, r.name, r.changes.map((c) => [c.path, c.desired, c.live])]),
          ).toEqual([["ConfigMap", "settings", [["/data/mode", "fast", "slow"]]]]);
        } finally {
          await s.cleanup();
        }
      });
    });
  }

  it("runs as the kubectl plugin kubectl undrift, whose help names it so", async () => {
    const nodeBin = dirname(process.execPath);
    expect(await installed(nodeBin, "kubectl", ["undrift", "--version"])).toEqual({
      code: 0,
      stdout: `undrift ${version}\n`,
      stderr: "",
    });
    const help = await installed(nodeBin, "kubectl", ["undrift", "scan", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("kubectl undrift scan --repo DIR --target NAME");
  });

  it("completes in kubectl's own completion: the package installs kubectl_complete-undrift", async () => {
    const nodeBin = dirname(process.execPath);
    // What kubectl's bash and zsh scripts run on <TAB> after `kubectl undrift scan --output `.
    const answer = await installed(nodeBin, "kubectl", ["__complete", "undrift", "scan", "--output", ""]);
    expect(answer.stdout).toBe("text\njson\nmarkdown\n:4\n");
  });
});
