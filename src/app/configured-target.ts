// The target a command names, as the config in force has it (the last valid
// one while the file is invalid just now), on a cluster the registry allows:
// what `/undrift scan` and the dashboard's boxes both act on.
import type { ProbotOctokit } from "probot";
import { partitionTargets } from "../config/partition-targets.ts";
import type { TargetConfig } from "../config/schema.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import type { AppDeps } from "./app-deps.ts";

export async function configuredTarget(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  target: string;
}): Promise<{ target: TargetConfig } | { skipped: string }> {
  const { deps, octokit, owner, repo } = params;
  const fullName = `${owner}/${repo}`;
  const loaded = await loadRepoConfig({ octokit, owner, repo });
  const config =
    loaded.status === "valid"
      ? loaded.config
      : loaded.status === "invalid"
        ? await lastValidConfig({ redis: deps.queues.connection, prefix: deps.queues.prefix }).get(fullName)
        : undefined;
  if (!config) return { skipped: "no valid config" };
  const allowed = partitionTargets({ registry: deps.registry, repo: fullName, targets: config.targets }).allowed;
  const found = allowed.find((t) => t.name === params.target);
  if (!found) return { skipped: `target ${params.target} is not in the config, or its cluster is refused` };
  return { target: found };
}
