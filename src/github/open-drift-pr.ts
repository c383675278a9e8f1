// Opens a drift PR, then labels it and asks for reviews. A create that GitHub
// performed but whose answer was lost (a 502 retried by octokit) comes back as
// 422 "A pull request already exists"; the existing PR is then taken as ours.
import { type DriftPrMode, driftBranch, type FoundPr, findDriftPr } from "./find-drift-pr.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { GitHubError, githubStep, statusOf } from "./github-errors.ts";
import type { Writes } from "./github-writes.ts";

export interface OpenDriftPrParams extends RepoRef {
  octokit: GitHubClient;
  writes: Writes;
  target: string;
  mode: DriftPrMode;
  baseBranch: string;
  title: string;
  /** The body with its marker. */
  body: string;
  labels?: string[];
  reviewers?: string[];
  /** Refused labels and reviewers go here instead of failing a PR that exists by then. */
  warnings: string[];
}

/** The opened PR; undefined in a dry run. */
export async function openDriftPr(
  params: OpenDriftPrParams,
): Promise<{ number: number; html_url: string } | undefined> {
  const { octokit, owner, repo, writes } = params;
  const branch = driftBranch(params);
  const opened = await writes.write(
    { route: "POST /repos/{owner}/{repo}/pulls", summary: `open pull request ${branch} → ${params.baseBranch}` },
    async () => {
      try {
        const { data } = await octokit.request("POST /repos/{owner}/{repo}/pulls", {
          owner,
          repo,
          title: params.title,
          head: branch,
          base: params.baseBranch,
          body: params.body,
          maintainer_can_modify: true,
        });
        return data;
      } catch (error) {
        const found = statusOf(error) === 422 ? await findDriftPr(params) : undefined;
        if (!found) throw new GitHubError({ repo: params, step: `open pull request from ${branch}`, error });
        await retitle({ ...params, pr: found });
        return found;
      }
    },
  );
  await addLabelsAndReviewers({ ...params, number: opened?.number ?? 0 });
  return opened;
}

async function retitle(params: OpenDriftPrParams & { pr: FoundPr }) {
  const { octokit, owner, repo, pr } = params;
  await githubStep({
    repo: params,
    step: `update pull request #${pr.number}`,
    run: () =>
      octokit.request("PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
        owner,
        repo,
        pull_number: pr.number,
        title: params.title,
        body: params.body,
      }),
  });
}

async function addLabelsAndReviewers(params: OpenDriftPrParams & { number: number }) {
  const { octokit, owner, repo, writes, warnings, number } = params;
  // Records name the PR by branch, not number, so a dry run (which has no number) yields the same ones.
  const branch = driftBranch(params);
  // The PR exists by now: a refused label or reviewer is reported, not allowed to fail the job and leave it half-done.
  const tolerate = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof GitHubError) || error.kind !== "invalid") throw error;
      warnings.push(error.message);
    }
  };
  const labels = params.labels ?? [];
  if (labels.length > 0) {
    const summary = `label the pull request from ${branch}: ${labels.join(", ")}`;
    await tolerate(() =>
      writes.write({ route: "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", summary }, () =>
        githubStep({
          repo: params,
          step: `label pull request #${number}`,
          run: () =>
            octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", {
              owner,
              repo,
              issue_number: number,
              labels,
            }),
        }),
      ),
    );
  }
  const all = params.reviewers ?? [];
  const users = all.filter((r) => !r.includes("/"));
  // `org/team` names a team; the API wants the team's slug alone.
  const teams = all.filter((r) => r.includes("/")).map((r) => r.slice(r.indexOf("/") + 1));
  if (all.length > 0) {
    const summary = `request review of the pull request from ${branch}: ${all.join(", ")}`;
    await tolerate(() =>
      writes.write({ route: "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", summary }, () =>
        githubStep({
          repo: params,
          step: `request reviewers for #${number}`,
          run: () =>
            octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", {
              owner,
              repo,
              pull_number: number,
              reviewers: users,
              ...(teams.length ? { team_reviewers: teams } : {}),
            }),
        }),
      ),
    );
  }
}
