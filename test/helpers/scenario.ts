// A throwaway GitOps repository bound to a fresh namespace of the test cluster,
// so each test states its manifests, lets Git be applied as an applier would,
// makes drift with kubectl, and runs `undrift scan` as a user would (scan, scanJson) or calls the scan stage
// in-process (scanReport) where the test is about drift, not about the CLI.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { stringify } from "yaml";
import { runScan } from "../../src/cli/run-scan.ts";
import { exitCodeOf } from "../../src/cli/scan-command.ts";
import { readRepoConfig } from "../../src/config/load-config.ts";
import { pickTarget } from "../../src/config/pick-target.ts";
import { trackingLabel } from "../../src/config/tracking-label.ts";
import { finalizeDesired } from "../../src/desired/finalize-desired.ts";
import { renderTarget } from "../../src/desired/render-target.ts";
import { discover } from "../../src/live/discovery.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import type { DriftReport } from "../../src/model/types.ts";
import { renderJson } from "../../src/report/render-json.ts";
import { scanReportSchema } from "../../src/report/report-json-schema.ts";
import { client, contexts, kubeconfigPath, kubectl, uniqueName } from "./cluster.ts";
import { giveOwnNode } from "./own-node.ts";
import { type CliResult, undrift } from "./run-cli.ts";

export { type CliResult, undrift };

export interface Scenario {
  repoDir: string;
  namespace: string;
  target: string;
  write(files: Record<string, string>): void;
  /** Applies the rendered target with server-side apply as field manager `undrift`, as an applier would. */
  applyGit(): Promise<void>;
  scan(options?: {
    output?: "json" | "text" | "markdown";
    context?: string;
    kubeconfig?: string;
    extra?: string[];
  }): Promise<CliResult>;
  scanJson(options?: {
    context?: string;
    kubeconfig?: string;
  }): Promise<{ code: number; report: DriftReport; stderr: string }>;
  /**
   * What `scanJson` returns, from the scan stage called in this process (no CLI process, no module reload):
   * the code is the one the CLI would exit with, the report exactly what `--output json` prints. stderr is
   * always empty: a one-target scan writes to it only with UNDRIFT_DEBUG or REDIS_URL (neither is used here),
   * and a failed scan throws here as scanJson throws on exit code 2.
   */
  scanReport(options?: {
    context?: string;
    kubeconfig?: string;
  }): Promise<{ code: number; report: DriftReport; stderr: string }>;
  /** Removes the repository and deletes the namespace (without waiting for it to go). */
  cleanup(): Promise<void>;
}

/** Makes a repository with one target `app` (plain render unless `target` says otherwise) in a fresh namespace. */
export function scenario(params: {
  files: Record<string, string>;
  target?: Record<string, unknown>;
  /** More top-level settings of `.github/undrift.yml` (`notifications`, `pullRequests`). */
  config?: Record<string, unknown>;
}): Scenario {
  const repoDir = mkdtempSync(join(tmpdir(), "undrift-repo-"));
  const namespace = uniqueName("t");
  // Target names are unique per cluster: the default tracking label is `undrift.dev/target=<target>`.
  const target = uniqueName("app");
  const config = {
    targets: [{ name: target, cluster: "test", path: "manifests", namespace, ...params.target }],
    ...params.config,
  };
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      const file = join(repoDir, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text.replaceAll("$NS", namespace));
    }
  };
  write({ ".github/undrift.yml": stringify(config), ...params.files });
  let ownNode: Promise<void> | undefined;
  return {
    repoDir,
    namespace,
    target,
    write,
    async applyGit() {
      await kubectl(["create", "namespace", namespace]).catch(() => undefined);
      // Git's Deployments get pods: they run on the namespace's own node, not on capacity other runs can take.
      ownNode ??= giveOwnNode(namespace);
      await ownNode;
      const config = await readRepoConfig(repoDir);
      const t = pickTarget(config, target);
      const rendered = await renderTarget({ repoDir, target: t });
      const index = await discover(client());
      const desired = finalizeDesired({
        objects: rendered.objects,
        namespace: t.namespace,
        trackingLabel: trackingLabel(t),
        scopeOf: (apiVersion, kind) => index.scopeOf(apiVersion, kind),
      });
      // kubectl reads YAML 1.1, where an unquoted `on` is a boolean: write 1.1, which quotes it.
      const yaml = desired.map((d) => stringify(d.object, { version: "1.1" })).join("---\n");
      await kubectl(["apply", "--server-side", "--field-manager=undrift", "--force-conflicts", "-f", "-"], yaml);
    },
    scan(options = {}) {
      const args = [
        "scan",
        "--repo",
        repoDir,
        "--target",
        target,
        "--kubeconfig",
        options.kubeconfig ?? kubeconfigPath(),
      ];
      if (options.output) args.push("--output", options.output);
      if (options.context) args.push("--context", options.context);
      return undrift([...args, ...(options.extra ?? [])]);
    },
    async scanJson(options = {}) {
      const result = await this.scan({ output: "json", ...options });
      if (result.code === 2) throw new Error(`scan failed: ${result.stderr}`);
      const json = JSON.parse(result.stdout);
      // Every real report is what schema/report.schema.json says, with no field it leaves undescribed.
      expect(scanReportSchema.parse(json)).toEqual(json);
      return { code: result.code, report: json as DriftReport, stderr: result.stderr };
    },
    async scanReport(options = {}) {
      // As scan-command.ts: the kubeconfig loaded as --kubeconfig/--context load it, runScan, the exit code, the JSON.
      const kubeConfig = loadKubeconfig({
        kubeconfig: options.kubeconfig ?? kubeconfigPath(),
        ...(options.context ? { context: options.context } : {}),
      });
      const { report: scanned } = await runScan({ repoDir, targetName: target, kubeConfig });
      const code = exitCodeOf(scanned);
      const json = JSON.parse(renderJson(scanned));
      if (code === 2) throw new Error(`scan failed: nothing could be compared: ${JSON.stringify(json.problems)}`);
      expect(scanReportSchema.parse(json)).toEqual(json);
      return { code, report: json as DriftReport, stderr: "" };
    },
    async cleanup() {
      rmSync(repoDir, { recursive: true, force: true });
      // The controllers give every Deployment pods, and kwok's shared nodes hold 110 each as a kubelet does: a
      // namespace left behind keeps its pods (and its own node), and fills what tests without one rely on.
      await kubectl(["delete", "namespace", namespace, "--ignore-not-found", "--wait=false"]);
    },
  };
}

export { contexts, kubectl };
