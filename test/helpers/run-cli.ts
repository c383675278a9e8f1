// Runs the undrift command as a separate process, the way a user does; needs no cluster.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, "../../bin/undrift.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `env` replaces the process's environment (NO_COLOR is always set); default: this process's.
 * `timeoutMs` kills a run that does not exit by then and fails (a command that hangs, not one that is slow).
 */
export async function undrift(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      maxBuffer: 256 << 20,
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      env: { ...(options.env ?? process.env), NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
