// The undrift command: a thin front end over the same stages the app uses.
// Exit codes follow `kubectl diff`: 0 in sync, 1 drift found, 2 error.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { oneLine } from "../model/one-line.ts";
import { commandSpecs } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { renderCommandHelp } from "./render-command-help.ts";

const usage = `undrift: turns Kubernetes drift from Git into reviewable changes

Usage:
  undrift scan    --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--output text|json|markdown]
                  [--all [--cluster NAME]] [--color auto|always|never]
  undrift codify  --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--dry-run] [--allow-dirty]
                  [--output text|json]                edit the files under DIR so Git matches the cluster;
                                                      refuses uncommitted work in the target's folder
                                                      unless --allow-dirty
  undrift revert  --repo DIR --target NAME [--prune [--force-prune] [--propagation background|foreground|orphan]]
                  [--wait | --no-wait] [--dry-run] [--output text|json]   apply Git to the cluster
  undrift preview --repo DIR --base REF --head REF --target NAME [--kubeconfig FILE] [--context NAME]
                  [--output text|json|markdown] [--all [--cluster NAME]]   what merging head into base would change
  undrift start                                       web and workers in one process (npm start)
  undrift web                                         the webhook receiver (the setup page without APP_ID)
  undrift worker  [--clusters a,b]                    scan workers for those clusters (default: all in UNDRIFT_CLUSTERS)
  undrift audit   [--repo R] [--since T] [--limit N] [--output text|json]   the audit trail, oldest first
  undrift validate --repo DIR [--target NAME] [--output text|json]   config and renders checked, no cluster
  undrift targets --repo DIR [--cluster NAME] [--output text|json]   every target, discovered ones included
  undrift completion bash|zsh                         a shell completion script

--target may be left out when .github/undrift.yml has one target. scan, codify, revert and preview
take --color auto|always|never (auto: a terminal or FORCE_COLOR, never NO_COLOR).

Exit codes: 0 in sync, 1 drift found, 2 error.
Options:
  -h, --help       this text
  -v, --version    the version

undrift <command> --help (or undrift help <command>) tells a command's flags.
`;

/** 128 + SIGPIPE (13): a shell's code for a process whose stdout reader went away. */
const brokenPipeExitCode = 141;

type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  scan: async () => {
    const { scanCommand } = await import("./scan-command.ts");
    // Who changed what comes from the records in Redis; without REDIS_URL its client is never loaded.
    if (!process.env.REDIS_URL?.trim()) return scanCommand;
    const { recordsFromEnv } = await import("./attribute-from-redis.ts");
    return (argv: string[]) => scanCommand(argv, { attribution: recordsFromEnv()! });
  },
  codify: async () => (await import("./codify-command.ts")).codifyCommand,
  revert: async () => (await import("./revert-command.ts")).revertCommand,
  preview: async () => (await import("./preview-command.ts")).previewCommand,
  start: async () => (await import("./start-command.ts")).startCommand,
  web: async () => (await import("./web-command.ts")).webCommand,
  worker: async () => (await import("./worker-command.ts")).workerCommand,
  audit: async () => (await import("./audit-command.ts")).auditCommand,
  attribution: async () => (await import("./attribution-command.ts")).attributionCommand,
  validate: async () => (await import("./validate-command.ts")).validateCommand,
  targets: async () => (await import("./targets-command.ts")).targetsCommand,
  completion: async () => (await import("./completion-command.ts")).completionCommand,
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** Help as the user typed the command: `kubectl undrift scan` when kubectl started its plugin, kubectl-undrift. */
function asInvoked(help: string): string {
  if (!basename(process.argv[1] ?? "").startsWith("kubectl-")) return help;
  // Continuation lines (indented past the command) move right with the eight added characters.
  return help.replace(/(^|[\s(])undrift (?=[a-z<-])/gm, "$1kubectl undrift ").replace(/^ {18}/gm, " ".repeat(26));
}

/**
 * `--help` or `-h` anywhere before `--`: no command takes either as a value (parseArgs
 * refuses `--repo --help` as ambiguous), so asking for help never runs the command.
 */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

function commandHelp(name: string): number {
  const spec = commandSpecs[name];
  if (!spec) throw new UsageError(`unknown command "${name}" (try undrift --help)`);
  process.stdout.write(asInvoked(renderCommandHelp(name, spec)));
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" && rest[0]) return commandHelp(rest[0]);
  if (!name || name === "-h" || name === "--help" || name === "help") {
    process.stdout.write(asInvoked(usage));
    return name ? 0 : 2;
  }
  if (name === "-v" || name === "--version") {
    process.stdout.write(`undrift ${version()}\n`);
    return 0;
  }
  // Hidden, as cobra's: kubectl's plugin completion (bin/kubectl_complete-undrift) asks it, words as typed.
  if (name === "__complete") return (await import("./complete-command.ts")).completeCommand(rest);
  const load = commands[name];
  if (!load) throw new UsageError(`unknown command "${name}" (try undrift --help)`);
  if (asksForHelp(rest)) return commandHelp(name);
  return (await load())(rest);
}

// `undrift scan | head -1`: the reader is gone, so nothing more can be said. A Unix tool dies of SIGPIPE there,
// quietly, and its shell reports 128 + 13; Node ignores SIGPIPE and raises EPIPE instead, which would print a stack.
// Exiting at once, with the code a shell would show, is what `yes | head -1` does. Any other stdout error still throws.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(brokenPipeExitCode);
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // The message names the file, field or object at fault; no prefix, so it reads like the contract (file:line: field: why).
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${oneLine(message, { fold: "breaks" })}\n`);
  if (process.env.UNDRIFT_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  // Every error is exit code 2, as in `kubectl diff`; drift itself is 1 and never an error.
  process.exitCode = 2;
}
