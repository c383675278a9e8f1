// The commands the benchmarks time, each run as a user runs it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectDir } from "./settings.ts";

const undriftBin = join(projectDir, "bin/undrift.js");

export interface Command {
  command: string;
  args: string[];
}

/**
 * The undrift bin itself (its shebang sets Node's flags); npm run puts the pinned
 * node on the PATH. With `cpuProfileDir`, node runs the bin with the shebang's
 * flags plus --cpu-prof: flags after the bin would be undrift's arguments.
 */
export function undriftCommand(args: string[], options: { cpuProfileDir?: string } = {}): Command {
  if (!options.cpuProfileDir) return { command: undriftBin, args };
  const shebang = readFileSync(undriftBin, "utf8").split("\n")[0]!;
  const nodeFlags = shebang
    .replace(/^#!.*?\bnode\b/, "")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  const profile = ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`];
  return { command: process.execPath, args: [...nodeFlags, ...profile, undriftBin, ...args] };
}

/** `kubectl diff --server-side` of a folder, as Flux and a reviewer run it: a GET and a dry-run apply per object. */
export function kubectlDiffCommand(params: { dir: string; kubeconfig: string }): Command {
  return {
    command: "kubectl",
    args: [
      "diff",
      "--server-side",
      "--field-manager=undrift",
      // Without it the dry-run apply fails with a conflict on every field a person took over.
      "--force-conflicts",
      "-f",
      params.dir,
      "-R",
      "--kubeconfig",
      params.kubeconfig,
      "-v=6", // one log line per request: kubectl's own count
    ],
  };
}
