// The arguments every per-target command shares (--repo, --target, --kubeconfig,
// --context, --output, --color; their flags are in command-specs.ts), checked once, beside the command's own.
import { statSync } from "node:fs";
import type { ParseArgsOptionsConfig } from "node:util";
import type { KubeConfig } from "@kubernetes/client-node";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { stdoutColor } from "./color-choice.ts";
import { UsageError } from "./errors.ts";
import { parseCommandArgs } from "./parse-command-args.ts";

export function parseTargetArgs<T extends ParseArgsOptionsConfig, O extends string>(
  argv: string[],
  params: {
    /** The command's spec flags: the shared ones and its own. */
    options: T;
    outputs: readonly O[] /** false: the command checks its own flags first, then calls checkRepoFolder. */;
    checkRepo?: boolean;
  },
) {
  const values = parseCommandArgs(argv, params.options);
  // The shared options' values, typed here where T is still open.
  const common = values as {
    repo?: string;
    target?: string;
    kubeconfig?: string;
    context?: string;
    output: string;
    color?: string;
  };
  const output = common.output as O;
  if (!params.outputs.includes(output)) {
    throw new UsageError(`--output: expected one of ${params.outputs.join(", ")}, got "${output}"`);
  }
  // Checked whatever the output, so a wrong --color is said at once; only text is ever coloured.
  const color = stdoutColor(common.color) && output === "text";
  if (!common.repo) throw new UsageError("--repo is required (the working tree of the GitOps repository)");
  if (params.checkRepo !== false) checkRepoFolder(common.repo);
  return {
    values,
    repo: common.repo,
    /** Absent when not given: resolveTargets picks the config's only target, or says which there are. */
    target: common.target,
    output,
    color,
    /** Loaded only when needed, after the arguments are known to be right. */
    kubeConfig: (): KubeConfig => loadKubeconfig({ kubeconfig: common.kubeconfig, context: common.context }),
  };
}

/** --repo names a folder: a file or a missing path is said so, not as ENOTDIR or "undrift.yml: not found". */
export function checkRepoFolder(repo: string): void {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(repo, { throwIfNoEntry: false });
  } catch {
    info = undefined; // ENOTDIR: a path through a file
  }
  if (!info) throw new UsageError(`--repo ${repo}: no such folder`);
  if (!info.isDirectory()) throw new UsageError(`--repo ${repo}: is a file; expected the folder of a working tree`);
}
