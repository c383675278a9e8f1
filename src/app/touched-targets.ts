// Steps 2 and 3 of handlePush: the targets whose folders the push touched,
// then, for files outside every folder, the kustomize targets that render from
// them (a shared base, a component, a patch file); only then are
// kustomizations read.
import type { ProbotOctokit } from "probot";
import { CONFIG_FILES } from "../config/load-config.ts";
import type { TargetConfig } from "../config/schema.ts";
import { targetsUsingChanges } from "./targets-using-changes.ts";
import { touchesPath } from "./touches-path.ts";

/** The targets to scan, those touched directly first. */
export async function touchedTargets(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  sha: string;
  targets: TargetConfig[];
  /** The files the push changed; undefined when it cannot say (every target counts as touched). */
  files: ReadonlySet<string> | undefined;
}): Promise<TargetConfig[]> {
  const { octokit, owner, repo, sha, targets, files } = params;
  const touched = targets.filter((target) => touchesPath(files, target.path));
  const outside = [...(files ?? [])].filter(
    (file) => !CONFIG_FILES.includes(file) && !targets.some((target) => touchesPath(new Set([file]), target.path)),
  );
  const others = targets.filter((target) => !touched.includes(target));
  if (files && outside.length > 0 && others.length > 0)
    touched.push(
      ...(await targetsUsingChanges({ octokit, owner, repo, sha, targets: others, files: new Set(outside) })),
    );
  return touched;
}
