// The head of a branch (usually the default one) through a conditional
// request: the last ETag goes in If-None-Match, and GitHub answers 304 when
// the branch has not moved. A 304 does not count against the rate limit, so a
// scheduled scan of an unchanged repository costs nothing; it still learns the
// head and its tree, kept with the ETag, for the snapshot and a drift PR's base.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep, statusOf } from "./github-errors.ts";
import type { KeyValueStore } from "./key-value-store.ts";

export interface HeadIfChangedParams extends RepoRef {
  octokit: GitHubClient;
  branch: string;
  /** Keeps the ETag and the head it stands for, per repository and branch. */
  store: KeyValueStore;
}

export interface BranchHead {
  /** unchanged: the head is the one seen last time (a 304, or a new ETag for the same commit). */
  status: "changed" | "unchanged";
  sha: string;
  /** The head commit's tree: the base_tree of a drift PR's commit. */
  treeSha: string;
}

interface Remembered {
  etag?: string;
  sha: string;
  treeSha: string;
}

/** The store key: names lowercased, as GitHub's are case-insensitive. */
export function headStoreKey(params: RepoRef & { branch: string }): string {
  return `undrift:head:${params.owner.toLowerCase()}/${params.repo.toLowerCase()}:${params.branch}`;
}

export async function headIfChanged(params: HeadIfChangedParams): Promise<BranchHead> {
  const { octokit, owner, repo, branch, store } = params;
  const key = headStoreKey(params);
  const stored = await store.get(key);
  const last = stored ? (JSON.parse(stored) as Remembered) : undefined;
  return githubStep({
    repo: params,
    step: `read head of ${branch}`,
    run: async () => {
      try {
        const response = await octokit.request("GET /repos/{owner}/{repo}/branches/{branch}", {
          owner,
          repo,
          branch,
          ...(last?.etag ? { headers: { "if-none-match": last.etag } } : {}),
        });
        const head: Remembered = { sha: response.data.commit.sha, treeSha: response.data.commit.commit.tree.sha };
        const etag = response.headers.etag;
        await store.set(key, JSON.stringify(etag ? { ...head, etag } : head));
        return { status: last?.sha === head.sha ? "unchanged" : "changed", sha: head.sha, treeSha: head.treeSha };
      } catch (error) {
        // Octokit reports 304 Not Modified as an error; here it is the answer hoped for.
        if (statusOf(error) !== 304 || !last) throw error;
        return { status: "unchanged", sha: last.sha, treeSha: last.treeSha };
      }
    },
  });
}
