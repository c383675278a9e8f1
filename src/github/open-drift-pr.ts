// Opens a drift PR, then labels it and asks for reviews. A create that GitHub
// performed but whose answer was lost (a 502 retried by octokit) comes back as
// 422 "A pull request already exists"; the existing PR is then taken as ours.
import { type DriftPrMode, driftBranch, findDriftPr } from "./find-drift-pr.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { GitHubError, statusOf } from "./github-errors.ts";
import type { Writes } from "./github-writes.ts";
import { updateDriftPr } from "./update-drift-pr.ts";

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
  const { writes, title, body } = params;
  const branch = driftBranch(params);
  const opened = await writes.request(
    "POST /repos/{owner}/{repo}/pulls",
    { title, head: branch, base: params.baseBranch, body, maintainer_can_modify: true },
    {
      summary: `open pull request ${branch} → ${params.baseBranch}`,
      recover: async (error) => {
        const found = statusOf(error) === 422 ? await findDriftPr(params) : undefined;
        if (!found) throw new GitHubError({ repo: params, step: `open pull request from ${branch}`, error });
        await updateDriftPr({ writes, number: found.number, title, body, partOfOpen: true });
        return found;
      },
    },
  );
  await addLabelsAndReviewers({ ...params, number: opened?.number ?? 0 });
  return opened;
}

async function addLabelsAndReviewers(params: OpenDriftPrParams & { number: number }) {
  const { writes, warnings, number } = params;
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
      writes.request(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
        { issue_number: number, labels },
        { summary, step: `label pull request #${number}` },
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
      writes.request(
        "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers",
        { pull_number: number, reviewers: users, ...(teams.length ? { team_reviewers: teams } : {}) },
        { summary, step: `request reviewers for #${number}` },
      ),
    );
  }
}
