// undrift targets --repo DIR [--cluster NAME] [--kubeconfig FILE] [--context NAME] [--output text|json]
// Every target a command can name: the config's, and with `discover:` those the
// cluster's Flux Kustomizations name, with where each came from (the config, or
// the reconciler's object by kind, namespace and name). What could not be
// discovered (a reconciler the cluster does not serve, a Kustomization that
// makes no target) is said on stderr, one line each; the rest is still listed.
import { readRepoConfig } from "../config/load-config.ts";
import type { TargetConfig } from "../config/schema.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import { cliTargets } from "./cli-targets.ts";
import { targetsOutputs, targets as targetsSpec } from "./command-specs.ts";
import { parseTargetArgs } from "./parse-target-args.ts";

/** One target as `--output json` gives it (DESIGN.md's contract). */
export interface ListedTarget {
  name: string;
  cluster: string;
  path: string;
  render: string;
  namespace?: string;
  mode: string;
  prune: TargetConfig["prune"];
  fieldManager: string;
  tracking: { selector: string };
  origin: { from: "config" | "flux" | "argo"; kind?: string; namespace?: string; name?: string };
  /** The reconciler is asked to stand still (Flux `suspend`): drift is expected, and still reported. */
  suspended?: boolean;
}

export async function targetsCommand(argv: string[]): Promise<number> {
  const args = parseTargetArgs(argv, { options: targetsSpec.flags, outputs: targetsOutputs });
  const config = await readRepoConfig(args.repo);
  const cluster = args.values.cluster;
  // A config without discover: needs no cluster to list what it says.
  const session = config.discover.length > 0 ? new ClusterSession(args.kubeConfig()) : undefined;
  const { targets, problems } = session
    ? await cliTargets({ config, repoDir: args.repo, session: () => session, cluster })
    : { targets: config.targets.filter((t) => cluster === undefined || t.cluster === cluster), problems: [] };
  for (const problem of problems) process.stderr.write(`undrift: ${problem}\n`);
  const listed = targets.map(listedTarget);
  process.stdout.write(args.output === "json" ? `${JSON.stringify(listed, null, 2)}\n` : text(listed));
  return 0;
}

export function listedTarget(target: TargetConfig): ListedTarget {
  const origin = target.origin ?? { from: "config" as const };
  return {
    name: target.name,
    cluster: target.cluster,
    path: target.path,
    render: target.flux ? "kustomize" : target.render,
    ...(target.namespace ? { namespace: target.namespace } : {}),
    mode: target.mode,
    prune: target.prune,
    fieldManager: target.fieldManager,
    tracking: { selector: target.tracking.selector },
    origin:
      origin.from === "config"
        ? { from: "config" }
        : { from: origin.from, kind: origin.kind, namespace: origin.namespace, name: origin.name },
    ...(origin.from !== "config" && origin.suspended ? { suspended: true } : {}),
  };
}

function text(listed: ListedTarget[]): string {
  if (listed.length === 0) return "no targets\n";
  const rows = listed.map((t) => [
    t.name,
    t.cluster,
    t.path,
    t.mode,
    t.origin.from === "config"
      ? "config"
      : `${t.origin.from} ${t.origin.kind} ${t.origin.namespace}/${t.origin.name}${t.suspended ? " (suspended)" : ""}`,
  ]);
  const header = ["NAME", "CLUSTER", "PATH", "MODE", "FROM"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd()}\n`;
  return [header, ...rows].map(line).join("");
}
