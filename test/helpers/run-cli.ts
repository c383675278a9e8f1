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

/** `env` replaces the process's environment (NO_COLOR is always set); default: this process's. */
export async function undrift(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      maxBuffer: 256 << 20,
      env: { ...(options.env ?? process.env), NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
