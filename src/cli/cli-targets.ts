// The targets the CLI can name: the config's, and with `discover:` those its
// cluster's reconcilers name. One kubeconfig reaches one cluster, so the
// `discover:` entry read is the one --cluster names, or the only one. Which
// repository the working tree is comes from its `origin` remote, as a
// reconciler's source URL names it.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { DiscoverEntry } from "../config/discover-schema.ts";
import { pickTarget, UnknownTargetError } from "../config/pick-target.ts";
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import { discoverTargets } from "../discover/discover-targets.ts";
import { mergeTargets } from "../discover/merge-targets.ts";
import { type RepositoryIdentity, repositoryOfUrl } from "../discover/source-url.ts";
import type { ClusterSession } from "../live/cluster-session.ts";
import { UsageError } from "./errors.ts";

const run = promisify(execFile);

export interface CliTargets {
  targets: TargetConfig[];
  /** One line each, for stderr: a reconciler the cluster lacks, an object that makes no target, a name clash. */
  problems: string[];
}

/** Every target of the config, discovered ones included (on `session`'s cluster). */
export async function cliTargets(params: {
  config: RepoConfig;
  repoDir: string;
  /** Asked for only when the config discovers: a configured target needs no cluster to be found. */
  session: () => ClusterSession;
  cluster?: string | undefined;
}): Promise<CliTargets> {
  const { config } = params;
  const entry = discoverEntry(config, params.cluster);
  const configured = params.cluster ? config.targets.filter((t) => t.cluster === params.cluster) : config.targets;
  if (!entry) return { targets: configured, problems: [] };
  const repository = await repositoryOfCheckout(params.repoDir);
  const found = await discoverTargets({
    session: params.session(),
    entry,
    repository,
    clusterInName: config.discover.length > 1,
  });
  const merged = mergeTargets({ configured, discovered: found.targets });
  return { targets: merged.targets, problems: [...found.problems, ...merged.problems] };
}

/** The target named `name`: the config's, else a discovered one; the error names every target there is. */
export async function cliTarget(params: {
  config: RepoConfig;
  repoDir: string;
  session: () => ClusterSession;
  name: string;
}): Promise<TargetConfig> {
  const { config, name } = params;
  if (config.discover.length === 0) return pickTarget(config, name);
  const { targets, problems } = await cliTargets(params);
  const target = targets.find((t) => t.name === name);
  if (target) return target;
  const names = targets.map((t) => t.name).join(", ");
  const why = problems.length > 0 ? `; ${problems.join("; ")}` : "";
  throw new UnknownTargetError(
    `target "${name}" is neither in .github/undrift.yml nor discovered (there are: ${names})${why}`,
  );
}

/** The `discover:` entry of --cluster, or the only one; undefined without any. */
function discoverEntry(config: RepoConfig, cluster: string | undefined): DiscoverEntry | undefined {
  if (config.discover.length === 0) return undefined;
  if (cluster !== undefined) return config.discover.find((e) => e.cluster === cluster);
  if (config.discover.length === 1) return config.discover[0];
  const clusters = config.discover.map((e) => e.cluster).join(", ");
  throw new UsageError(
    `discover: names clusters ${clusters} and one kubeconfig reaches one; add --cluster NAME and the --context of that cluster`,
  );
}

/** The repository the working tree at `repoDir` is a clone of, by its `origin` remote. */
export async function repositoryOfCheckout(repoDir: string): Promise<RepositoryIdentity> {
  const url = await run("git", ["-C", repoDir, "remote", "get-url", "origin"]).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
  const repository = url ? repositoryOfUrl(url) : undefined;
  if (!repository) {
    throw new UsageError(
      `--repo ${repoDir}: discover: needs to know which repository this is, from its remote "origin" (git remote add origin https://github.com/OWNER/REPO); ${url ? "its URL names no host, owner and repository" : "it has none"}`,
    );
  }
  return repository;
}
