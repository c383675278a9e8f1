// The head of a repository's default branch, as cheaply as GitHub allows: the
// repository (for the branch's name) and the branch both through conditional
// requests, so when neither moved both answers are 304s, free of rate limit.
import type { GitHubClient } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";
import { type BranchHead, headIfChanged } from "./head-if-changed.ts";
import type { KeyValueStore } from "./key-value-store.ts";

/** The default branch's name and head; `octokit` should be withConditionalGets' client, `branch` given when known (a push). */
export async function defaultBranchHead(params: {
  octokit: GitHubClient;
  store: KeyValueStore;
  owner: string;
  repo: string;
  branch?: string;
}): Promise<BranchHead & { branch: string }> {
  const { octokit, owner, repo } = params;
  const branch =
    params.branch ??
    (await githubStep({
      repo: params,
      step: "read the default branch",
      run: async () => (await octokit.request("GET /repos/{owner}/{repo}", { owner, repo })).data.default_branch,
    }));
  const head = await headIfChanged({ octokit, owner, repo, branch, store: params.store });
  return { ...head, branch };
}
