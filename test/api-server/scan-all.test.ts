// `scan --all`, the one-target default, the header that names context and server,
// and colour in every command, run as a user runs them against the test cluster.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { kubeconfigPath, clusterWhereOf as where } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const ESC = "\u001b[";
const configMap = (name: string, value = "1") =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "${value}"\n`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

/** The scenario's target in sync, a second target whose object is missing, and optionally a third that does not render. */
async function threeTargets(options: { broken: boolean }) {
  current = scenario({
    files: { "manifests/a.yaml": configMap("a"), "second/b.yaml": configMap("b"), "third/c.yaml": "a: b: c\n" },
  });
  const s = current;
  await s.applyGit();
  const second = `${s.target}-b`;
  const third = `${s.target}-c`;
  const targets = [
    { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace },
    { name: second, cluster: "test", path: "second", namespace: s.namespace },
    ...(options.broken ? [{ name: third, cluster: "test", path: "third", namespace: s.namespace }] : []),
  ];
  s.write({ ".github/undrift.yml": stringify({ targets }) });
  return { s, second, third };
}

const scanAll = (s: Scenario, extra: string[] = []) =>
  undrift(["scan", "--repo", s.repoDir, "--all", "--kubeconfig", kubeconfigPath(), ...extra]);

describe("undrift scan --all", () => {
  it("scans each target, a summary line each naming context and server, and exits with the worst code", async () => {
    const { s, second } = await threeTargets({ broken: false });
    const result = await scanAll(s);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: "" });
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`${s.target}: in sync (1 object)${where()}`);
    expect(lines).toContain(`${second}: 1 missing${where()}`);
    expect(lines).toContain(`missing: v1 ConfigMap ${s.namespace}/b (second/b.yaml#0)`);
  });

  it("-o json gives an array of the reports, each as one target's JSON, in the config's order", async () => {
    const { s, second } = await threeTargets({ broken: false });
    const result = await scanAll(s, ["-o", "json"]);
    expect(result.code).toBe(1);
    const reports = JSON.parse(result.stdout) as Array<{ target: string; summary: Record<string, number> }>;
    expect(reports.map((r) => [r.target, r.summary])).toEqual([
      [s.target, { inSync: 1, drifted: 0, missing: 0, orphaned: 0 }],
      [second, { inSync: 0, drifted: 0, missing: 1, orphaned: 0 }],
    ]);
    // Exactly one target's shape: what `--target` prints for it.
    const one = await s.scanJson();
    expect(Object.keys(reports[0]!)).toEqual(Object.keys(one.report));
  });

  it("goes on past a target that does not render, says it on stderr with its name, and exits 2", async () => {
    const { s, second, third } = await threeTargets({ broken: true });
    const text = await scanAll(s);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(`${s.target}: in sync (1 object)`);
    expect(text.stdout).toContain(`${second}: 1 missing`);
    expect(text.stderr).toMatch(new RegExp(`^${third}: [^\\n]*third/c\\.yaml:1\\b[^\\n]*\\n$`));
    const json = await scanAll(s, ["-o", "json"]);
    const items = JSON.parse(json.stdout) as Array<{ target: string; error?: string }>;
    expect(items.map((i) => i.target)).toEqual([s.target, second, third]);
    expect(items[2]!.error).toContain("third/c.yaml:1");
  });
});

describe("the one target of a config", () => {
  it("is scanned without --target, and the header names context and server", async () => {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    await current.applyGit();
    const result = await undrift(["scan", "--repo", current.repoDir, "--kubeconfig", kubeconfigPath()]);
    expect(result).toEqual({ code: 0, stdout: `${current.target}: in sync (1 object)${where()}\n`, stderr: "" });
  });
});

describe("the header of codify and revert", () => {
  it("names the context and server, as scan's does; JSON has no header", async () => {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "patch", "configmap", "a", "-p", '{"data":{"a":"2"}}']);
    const base = ["--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "--dry-run"];
    const codify = await undrift(["codify", ...base]);
    expect(codify.stdout.split("\n")).toContain(`target ${s.target}: would codify 1 object, 0 not codified${where()}`);
    const revert = await undrift(["revert", ...base]);
    expect(revert.stdout.split("\n")[0]).toBe(`${s.target} (dry run, nothing changed): 1 configured${where()}`);
    const json = await undrift(["revert", ...base, "-o", "json"]);
    expect(json.stdout).not.toContain("(context ");
  });
});

describe("colour in every command", () => {
  async function drifted() {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    await current.applyGit();
    await kubectl(["-n", current.namespace, "patch", "configmap", "a", "-p", '{"data":{"a":"2"}}']);
    return current;
  }
  const args = (s: Scenario, command: string) => [
    command,
    "--repo",
    s.repoDir,
    "--target",
    s.target,
    "--kubeconfig",
    kubeconfigPath(),
    "--dry-run",
  ];

  it("colours codify and revert with --color=always and with FORCE_COLOR on a pipe, never JSON", async () => {
    const s = await drifted();
    const { NO_COLOR: _n, FORCE_COLOR: _f, ...env } = process.env;
    const cli = new URL("../../bin/undrift.js", import.meta.url).pathname;
    // Not the helper, which sets NO_COLOR (and NO_COLOR wins over FORCE_COLOR).
    const forcedRun = (command: string[]) =>
      promisify(execFile)(process.execPath, [cli, ...command], { env: { ...env, FORCE_COLOR: "1" } }).catch(
        (e: { stdout: string }) => ({ stdout: e.stdout }),
      );
    for (const command of ["codify", "revert"]) {
      const always = await undrift([...args(s, command), "--color=always"]);
      expect(always.stdout, command).toContain(ESC);
      const forced = await forcedRun(args(s, command));
      expect(forced.stdout, command).toContain(ESC);
      const both = await undrift(args(s, command), { env: { ...process.env, FORCE_COLOR: "1" } });
      expect(both.stdout, command).not.toContain(ESC);
      const plain = await undrift(args(s, command));
      expect(plain.stdout, command).not.toContain(ESC);
      const json = await undrift([...args(s, command), "--color", "always", "-o", "json"]);
      expect(json.stdout, command).not.toContain(ESC);
      JSON.parse(json.stdout);
    }
  });

  it("colours scan, codify and revert on a terminal, and none of them with NO_COLOR", async () => {
    const s = await drifted();
    const { NO_COLOR: _n, FORCE_COLOR: _f, ...env } = process.env;
    const cli = new URL("../../bin/undrift.js", import.meta.url).pathname;
    // script(1) gives the command a pseudo-terminal as its stdout, as a person's shell does.
    const onTerminal = async (command: string[], extra: NodeJS.ProcessEnv = {}) => {
      const line = [process.execPath, cli, ...command].map((w) => `'${w}'`).join(" ");
      const { stdout } = await promisify(execFile)("script", ["-qec", line, "/dev/null"], {
        env: { ...env, TERM: "xterm", ...extra },
      }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      return stdout;
    };
    // Colour is SGR (ESC [ ... m). A run slow enough to show progress also erases its line (ESC [ 2K) with
    // NO_COLOR: that is cursor control, not colour, so only SGR is looked for.
    const SGR = new RegExp(`${ESC.replace("[", "\\[")}[0-9;]*m`);
    for (const command of ["codify", "revert"]) {
      expect(await onTerminal(args(s, command)), command).toMatch(SGR);
      expect(await onTerminal(args(s, command), { NO_COLOR: "1" }), command).not.toMatch(SGR);
    }
    const scan = ["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    expect(await onTerminal(scan)).toMatch(SGR);
  });
});
