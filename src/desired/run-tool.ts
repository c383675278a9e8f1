// Runs kustomize or helm once, with a deadline, and hands back stdout. Failures
// keep the tool's own stderr, which is what a user needs to fix their files.
import { execFile } from "node:child_process";
import { UndriftError } from "../model/undrift-error.ts";

/** The tool exited non-zero, was killed at the deadline, or could not start. */
export class ToolRunError extends UndriftError {
  override name = "ToolRunError";
  // Retried, as before the flag; renderers wrap it in a RenderError, which is not.
  readonly permanent = false;
  /** The tool's stderr (empty when it never ran). */
  readonly stderr: string;
  readonly timedOut: boolean;

  constructor(message: string, options: { stderr: string; timedOut: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.stderr = options.stderr;
    this.timedOut = options.timedOut;
  }
}

/** Runs `file args` with exactly `env` (nothing inherited) and returns its stdout. */
export function runTool({
  file,
  args,
  env,
  cwd,
  timeoutMs = 60_000,
}: {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { env, cwd, timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 512 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const timedOut = error.killed === true && error.signal === "SIGKILL";
        const message = timedOut
          ? `${file} timed out after ${timeoutMs / 1000}s`
          : `${file} failed (${error.code ?? error.signal}): ${stderr.trim() || error.message}`;
        reject(new ToolRunError(message, { stderr, timedOut, cause: error }));
      },
    );
  });
}
