// A commit's files read without its tarball, for the web process, which has no
// snapshot of its own and must answer a webhook within seconds: the file list
// (one recursive tree) and a file's text (one raw read).
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** The recursive tree at `sha`; `truncated` when GitHub could not list it whole. */
export async function readTree(params: RepoRef & { octokit: GitHubClient; sha: string }) {
  const { octokit, owner, repo, sha } = params;
  return githubStep({
    repo: params,
    step: `list the files of ${sha.slice(0, 7)}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/git/trees/{tree_sha}", {
        owner,
        repo,
        tree_sha: sha,
        recursive: "1",
      });
      return data;
    },
  });
}

/** The text of `path` at `sha`; "" when GitHub answers with anything but text (a folder's listing). */
export async function readRawFile(
  params: RepoRef & { octokit: GitHubClient; sha: string; path: string },
): Promise<string> {
  const { octokit, owner, repo, sha, path } = params;
  return githubStep({
    repo: params,
    step: `read ${path} at ${sha.slice(0, 7)}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
        owner,
        repo,
        path,
        ref: sha,
        mediaType: { format: "raw" },
      });
      return typeof data === "string" ? data : "";
    },
  });
}
