// The kustomize targets a push changed from outside their folders: a shared
// base, a component, a patch or generator file one of their kustomizations
// names. Read from GitHub at the pushed commit: the commit's file list (one
// recursive tree), then each kustomization the walk reaches (one raw read
// each, shared by the targets). The web process has no snapshot of its own
// and must answer a webhook within seconds, so no tarball is downloaded here.
// A tree too large for GitHub to list whole (truncated) cannot be walked: every
// candidate is taken, and the job id dedupes the scans.
import type { TargetConfig } from "../config/schema.ts";
import { dependsOn, kustomizeDependencies } from "../desired/kustomize-dependencies.ts";
import { readRawFile, readTree } from "../github/commit-tree.ts";
import type { GitHubClient, RepoRef } from "../github/github-client.ts";

/** The targets among `targets` (render auto or kustomize) that render from one of `files` at `sha`. */
export async function targetsUsingChanges(
  params: RepoRef & {
    octokit: GitHubClient;
    sha: string;
    targets: TargetConfig[];
    files: ReadonlySet<string>;
  },
): Promise<TargetConfig[]> {
  const { octokit, owner, repo, sha } = params;
  const candidates = params.targets.filter((t) => t.render === "auto" || t.render === "kustomize");
  if (candidates.length === 0) return [];
  const tree = await readTree({ octokit, owner, repo, sha });
  if (tree.truncated) return candidates;
  const paths = new Set(tree.tree.filter((e) => e.type === "blob" && e.path).map((e) => e.path as string));
  const texts = new Map<string, string>();
  const read = (path: string) => readRawFile({ octokit, owner, repo, sha, path });
  const using: TargetConfig[] = [];
  for (const target of candidates) {
    let deps = kustomizeDependencies({ root: target.path, paths, kustomizations: texts });
    while (deps.unread.length > 0) {
      for (const file of deps.unread) texts.set(file, await read(file));
      deps = kustomizeDependencies({ root: target.path, paths, kustomizations: texts });
    }
    if ([...params.files].some((file) => dependsOn(deps, file))) using.push(target);
  }
  return using;
}
