// The commands the benchmarks time, each run as a user runs it.
import { join } from "node:path";
import { projectDir } from "./settings.ts";

export interface Command {
  command: string;
  args: string[];
}

/** The undrift bin itself (its shebang sets Node's flags); npm run puts the pinned node on the PATH. */
export function undriftCommand(args: string[]): Command {
  return { command: join(projectDir, "bin/undrift.js"), args };
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
