// Finds a target's tracking issue by its marker. Issues are listed (by the
// app's bot when its login is given), not searched: the search index lags, and
// a lagging lookup is how duplicate issues get opened.

import { readMarker } from "../report/markers.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

export interface FoundIssue {
  id: number | bigint;
  number: number;
  title: string;
  body?: string | null;
  state: string;
  html_url: string;
  labels: Array<string | { name?: string }>;
}

export interface TrackingIssues {
  /** The open one with the lowest number, else the most recently opened closed one. */
  issue?: FoundIssue;
  /** Other open issues with the same marker: only a create whose answer was lost and was retried makes them. */
  duplicates: FoundIssue[];
}

const perPage = 100;
// Without a creator filter a busy repository could need many pages; past this, older issues are not looked at.
const maxPages = 20;

export async function findTrackingIssue(
  params: RepoRef & { octokit: GitHubClient; target: string; creator?: string },
): Promise<TrackingIssues> {
  const { octokit, owner, repo, target } = params;
  const matches: FoundIssue[] = [];
  await githubStep({
    repo: params,
    step: `find tracking issue of ${target}`,
    run: async () => {
      for (let page = 1; page <= maxPages; page++) {
        const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues", {
          owner,
          repo,
          state: "all",
          sort: "created",
          direction: "asc",
          per_page: perPage,
          page,
          ...(params.creator ? { creator: params.creator } : {}),
        });
        for (const item of data) {
          // The issues list holds pull requests too; a drift PR's marker is of another kind anyway.
          if (item.pull_request || readMarker(item.body, "tracking")?.target !== target) continue;
          matches.push(item);
        }
        if (data.length < perPage) break;
      }
    },
  });
  const open = matches.filter((i) => i.state === "open").sort((a, b) => a.number - b.number);
  const issue = open[0] ?? matches.sort((a, b) => b.number - a.number)[0];
  return issue ? { issue, duplicates: open.slice(1) } : { duplicates: [] };
}
