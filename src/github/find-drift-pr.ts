// The open drift PR of a (target, mode), found by its fixed branch
// `undrift/<mode>/<target>`: one request, since GitHub filters pulls by head.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** codify and revert: a scan's drift; ignore: ticked fields turned into an ignoreDifferences rule. */
export type DriftPrMode = "codify" | "revert" | "ignore";

export interface FoundPr {
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  base: { ref: string };
  head: { ref: string };
}

/** `undrift/codify/infra`: the one branch a (target, mode) PR lives on. */
export function driftBranch(params: { target: string; mode: DriftPrMode }): string {
  return `undrift/${params.mode}/${params.target}`;
}

export async function findDriftPr(
  params: RepoRef & { octokit: GitHubClient; target: string; mode: DriftPrMode },
): Promise<FoundPr | undefined> {
  const { octokit, owner, repo } = params;
  const branch = driftBranch(params);
  return githubStep({
    repo: params,
    step: `find open pull request from ${branch}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls", {
        owner,
        repo,
        head: `${owner}:${branch}`,
        state: "open",
        per_page: 10,
      });
      // A fork's branch of the same name is not ours: GitHub filters by owner, and the ref is checked again here.
      return data.find((pr) => pr.head.ref === branch);
    },
  });
}
