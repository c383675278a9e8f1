// helm as a platform engineer runs it on charts/undrift: lint, template, install
// and uninstall against the test cluster, with homes of its own (no repositories,
// plugins or kubeconfig of whoever runs the tests).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { toolPath } from "../../src/desired/tools.ts";
import { kubeconfigPath } from "./cluster.ts";

export { helmComplaints } from "./helm-output.ts";

/** The chart in this checkout. */
export const chartDir = resolve(import.meta.dirname, "../../charts/undrift");

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "undrift-helm-home-"));
mkdirSync(join(home, "cache"), { recursive: true });

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm with `args`; resolves with its exit code and output, a failure included. */
export async function helm(args: string[]): Promise<HelmResult> {
  try {
    const { stdout, stderr } = await run(toolPath("helm"), args, {
      maxBuffer: 64 << 20,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        HELM_CACHE_HOME: join(home, "cache"),
        HELM_CONFIG_HOME: join(home, "config"),
        HELM_DATA_HOME: join(home, "data"),
        KUBECONFIG: kubeconfigPath(),
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

let files = 0;

/** A values file holding `values`, for `-f`. */
export function valuesFile(values: Record<string, unknown>): string {
  const file = join(home, `values-${++files}.yaml`);
  writeFileSync(file, stringify(values));
  return file;
}

/** Removes helm's homes and the values files: call it in afterAll. */
export function removeHelmHome(): void {
  rmSync(home, { recursive: true, force: true });
}

/** `helm template` of the chart as `release` in `namespace`; throws with helm's message when it refuses. */
export async function template(release: string, namespace: string, values: Record<string, unknown>): Promise<string> {
  const result = await helm(["template", release, chartDir, "--namespace", namespace, "-f", valuesFile(values)]);
  if (result.code !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return result.stdout;
}
