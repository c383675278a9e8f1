// Which targets a per-target command runs on: --target NAME; else the config's
// only target, as `kubectl` uses the one context there is; else, for the
// read-only commands, --all (optionally narrowed by --cluster). A config with
// several targets and neither flag is refused, naming them, since guessing
// would scan or write the wrong one.
import { readRepoConfig } from "../config/load-config.ts";
import type { RepoConfig } from "../config/schema.ts";
import { UsageError } from "./errors.ts";

export interface TargetChoice {
  /** The target names, in the config's order. */
  names: string[];
  /** True when --all asked for them: the output is one per target. */
  all: boolean;
  /** The config, when it had to be read to decide. */
  config?: RepoConfig;
}

export async function resolveTargets(params: {
  /** The folder whose .github/undrift.yml names the targets. */
  repoDir: string;
  target: string | undefined;
  /** Undefined for a command that takes no --all (codify, revert). */
  all?: boolean;
  cluster?: string | undefined;
  /** With `discover:` in the config, the names of every target on the kubeconfig's cluster, discovered ones too. */
  discovered?: (config: RepoConfig) => Promise<string[]>;
}): Promise<TargetChoice> {
  const { target, all, cluster } = params;
  const takesAll = all !== undefined;
  if (target && all) throw new UsageError("--target and --all exclude each other");
  if (cluster !== undefined && !all) throw new UsageError("--cluster picks the targets of --all and needs it");
  // A named target is the stage's to look up, with the error that names the ones there are.
  if (target) return { names: [target], all: false };
  const config = await readRepoConfig(params.repoDir).catch((error: unknown) => {
    // No config at all: the flag is still what is missing first, as it always was said.
    if (error instanceof Error && / not found in /.test(error.message)) {
      throw new UsageError("--target is required (a target name from .github/undrift.yml)", { cause: error });
    }
    throw error;
  });
  if (config.discover.length > 0 && params.discovered) {
    const found = await params.discovered(config);
    if (all || found.length === 1) return { names: found, all: all === true, config };
    throw new UsageError(
      `--target is required: there are ${found.length} targets (${found.join(", ")}); name one${takesAll ? ", or --all for every one" : ""}`,
    );
  }
  const names = config.targets.map((t) => t.name);
  if (all) return { names: allTargets(config, cluster), all: true, config };
  if (names.length === 1) return { names, all: false, config };
  const or = takesAll ? ", or --all for every one" : "";
  throw new UsageError(
    `--target is required: .github/undrift.yml has ${names.length} targets (${names.join(", ")}); name one${or}`,
  );
}

/**
 * One kubeconfig reaches one cluster: --all over targets bound to several would compare
 * some of them with the wrong cluster and report everything missing. --cluster says which.
 */
function allTargets(config: RepoConfig, cluster: string | undefined): string[] {
  const clusters = [...new Set(config.targets.map((t) => t.cluster))];
  if (cluster !== undefined) {
    const names = config.targets.filter((t) => t.cluster === cluster).map((t) => t.name);
    if (names.length === 0) {
      throw new UsageError(
        `--cluster ${cluster}: no target of .github/undrift.yml is bound to it (its clusters: ${clusters.join(", ")})`,
      );
    }
    return names;
  }
  if (clusters.length > 1) {
    throw new UsageError(
      `--all: the targets are bound to clusters ${clusters.join(", ")} and one kubeconfig reaches one; add --cluster NAME and the --context of that cluster`,
    );
  }
  return config.targets.map((t) => t.name);
}
