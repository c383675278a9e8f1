// The undrift command as a running process a test can watch and interrupt, the
// way a person at a terminal does: on pipes, or on a pseudo-terminal made by
// util-linux `script` (stdin, stdout and stderr all on it, so a Ctrl-C written to
// it reaches the process as the terminal's SIGINT).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";

const cli = resolve(import.meta.dirname, "../../bin/undrift.js");

export interface CliProcess {
  child: ChildProcess;
  /** What it has written so far (on a terminal, stdout and stderr as one transcript). */
  stdout(): string;
  stderr(): string;
  /** Resolves when `probe(stdout, stderr)` holds, failing naming `what` if the process ends first. */
  until(what: string, probe: (stdout: string, stderr: string) => boolean): Promise<void>;
  /** The exit code once it ends. */
  exited: Promise<number>;
}

/**
 * Starts `undrift ...args`; with `tty`, inside a pseudo-terminal (`script -qfec`). NO_COLOR is always set;
 * `env` is added to this process's environment, and `cwd` is where it starts (its `.env` is read there).
 */
export function startUndrift(
  args: string[],
  options: { tty?: boolean; env?: Record<string, string>; cwd?: string } = {},
): CliProcess {
  const env = { ...process.env, NO_COLOR: "1", TERM: "xterm", ...options.env };
  const cwd = options.cwd ?? process.cwd();
  const command = [process.execPath, cli, ...args].map(shellQuote).join(" ");
  // `exec` makes undrift the pty's foreground process itself, as when a person runs it from a shell.
  const child = options.tty
    ? spawn("script", ["-qfec", `exec ${command}`, "/dev/null"], { env, cwd, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(process.execPath, [cli, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const changed = new Set<() => void>();
  const note = () => {
    for (const f of changed) f();
  };
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    note();
  });
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
    note();
  });
  const exited = once(child, "close").then(([code]) => (typeof code === "number" ? code : -1));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    until: (what, probe) =>
      new Promise<void>((done, fail) => {
        const check = () => {
          if (!probe(out, err)) return;
          changed.delete(check);
          done();
        };
        changed.add(check);
        check();
        void exited.then(() => {
          if (changed.delete(check)) fail(new Error(`undrift ended before ${what}:\n${out}\n${err}`));
        });
      }),
  };
}

function shellQuote(word: string): string {
  return /^[\w./=:-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
