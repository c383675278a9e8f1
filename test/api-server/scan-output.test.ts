// The report a person reads: kubectl diff-style text, and markdown for GitHub
// split into comments of at most 65,536 characters without breaking a block; and a
// report whose reader stops after its first line (`undrift scan | head -1`).
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { scanTarget } from "../../src/cli/run-scan.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { renderMarkdown } from "../../src/report/render-markdown.ts";
import { startUndrift } from "../helpers/cli-process.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

describe("undrift scan: output", () => {
  it("prints a kubectl diff style text report with who changed what", async () => {
    current = scenario({
      files: {
        "manifests/config.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n",
      },
    });
    await current.applyGit();
    await kubectl(["-n", current.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const { stdout, code } = await current.scan();
    expect(code).toBe(1);
    expect(stdout).toContain(`${current.target}: 1 drifted`);
    expect(stdout).toContain(`v1 ConfigMap ${current.namespace}/settings (manifests/config.yaml#0)`);
    expect(stdout).toMatch(/^- {2}LOG_LEVEL: debug$/m);
    expect(stdout).toMatch(/^\+ {2}LOG_LEVEL: info$/m);
    expect(stdout).toMatch(/\/data\/LOG_LEVEL: changed by kubectl-patch at \d{4}-/);
    expect(stdout).not.toContain("\u001b[");
  });

  it("splits a large markdown report into parts under 65,536 characters, each block whole", async () => {
    const count = 40;
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i++) {
      const lines = Array.from({ length: 60 }, (_, j) => `    line ${j} of config ${i}: ${"x".repeat(30)}`).join("\n");
      files[`manifests/config-${i}.yaml`] =
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\ndata:\n  body: |\n${lines}\n`;
    }
    current = scenario({ files });
    await current.applyGit();
    for (let i = 0; i < count; i++) {
      await kubectl([
        "-n",
        current.namespace,
        "patch",
        "configmap",
        `config-${i}`,
        "-p",
        JSON.stringify({ data: { body: `replaced ${i}\n`.repeat(50) } }),
      ]);
    }
    const report = await scanTarget({
      repoDir: current.repoDir,
      targetName: current.target,
      kubeConfig: loadKubeconfig({ kubeconfig: kubeconfigPath() }),
    });
    expect(report.summary.drifted).toBe(count);
    const parts = renderMarkdown(report);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(65_536);
      expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
      expect((part.match(/<details>/g) ?? []).length).toBe((part.match(/<\/details>/g) ?? []).length);
    }
    for (let i = 0; i < count; i++) {
      const holders = parts.filter((p) => p.includes(`<summary>`) && p.includes(`/config-${i}</`));
      expect(holders.length, `config-${i} in exactly one part`).toBe(1);
    }
  });

  it("ends quietly with 141 when its reader stops after the first line, as `undrift scan | head -1` does", async () => {
    // A report of 1.7 MB (a 25,000-line value the cluster changed on every line, so the diff prints it twice): far
    // more than a pipe holds, so undrift is still writing when the reader goes away, and its next write meets EPIPE.
    const body = (who: string) => Array.from({ length: 25_000 }, (_, i) => `line ${i} as ${who} has it`).join("\n");
    const big = (who: string) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "big" },
      data: { body: body(who) },
    });
    current = scenario({ files: { "manifests/big.yaml": stringify(big("Git")) } });
    await current.applyGit();
    // Too long for a command line: the whole object, edited, on kubectl's stdin.
    await kubectl(["-n", current.namespace, "replace", "-f", "-"], stringify(big("the cluster")));
    const cli = startUndrift([
      "scan",
      "--repo",
      current.repoDir,
      "--target",
      current.target,
      "--kubeconfig",
      kubeconfigPath(),
    ]);
    await cli.until("the report's first line", (stdout) => stdout.includes("\n"));
    expect(cli.stdout()).toMatch(new RegExp(`^${current.target}: 1 drifted`));
    // `head -1` has its line and exits: the read end of the pipe is closed.
    cli.child.stdout!.destroy();
    expect(await cli.exited, cli.stderr()).toBe(141);
    expect(cli.stderr()).toBe("");
  });
});
