// Finds a target's tracking issue by its marker. Issues are listed (by the
// app's bot when its login is given), not searched: the search index lags, and
// a lagging lookup is how duplicate issues get opened.
//
// The list holds every issue and pull request the bot opened, closed ones too:
// one page while there are fewer than 100, but a repository of 1,000 targets
// has 1,000 tracking issues, and each scan would page through all of them (10
// requests), or, past `maxPages`, not find an old one and open a duplicate.
// So the caller may name the number the target's issue had at its last scan
// (`known`): once the first page is full, that issue is read by its number (one
// request, answered 304 while it is unchanged) and, if it is still this
// target's, the pages after the first are not read. Without it, or when it is
// no longer the target's (deleted, transferred, another marker), every page is.

import { readMarker } from "../report/markers.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep, statusOf } from "./github-errors.ts";

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
  params: RepoRef & {
    octokit: GitHubClient;
    target: string;
    creator?: string;
    /** The number of the target's tracking issue at its last scan, kept by the caller. */
    known?: number;
  },
): Promise<TrackingIssues> {
  const { octokit, owner, repo, target } = params;
  const matches: FoundIssue[] = [];
  const ours = (item: FoundIssue & { pull_request?: unknown; user?: { login?: string } | null }) =>
    // The issues list holds pull requests too; a drift PR's marker is of another kind anyway.
    !item.pull_request &&
    readMarker(item.body, "tracking")?.target === target &&
    (!params.creator || !item.user || item.user.login === params.creator);
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
        for (const item of data) if (ours(item)) matches.push(item);
        if (data.length < perPage) break;
        if (page === 1 && params.known !== undefined) {
          const kept = await knownIssue(params.known);
          if (kept && ours(kept)) {
            if (!matches.some((m) => m.number === kept.number)) matches.push(kept);
            break;
          }
        }
      }
    },
  });
  /** The issue of that number, or undefined when it is gone (404, or 410 once deleted) or was moved away (301). */
  async function knownIssue(issue_number: number): Promise<FoundIssue | undefined> {
    try {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", {
        owner,
        repo,
        issue_number,
      });
      // A transferred issue answers 301, which fetch follows: the issue then lives in another repository.
      const home = `/repos/${owner}/${repo}`.toLowerCase();
      if (data.repository_url && !data.repository_url.toLowerCase().endsWith(home)) return undefined;
      return data;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 || status === 410 || status === 301) return undefined;
      throw error;
    }
  }
  const open = matches.filter((i) => i.state === "open").sort((a, b) => a.number - b.number);
  const issue = open[0] ?? matches.sort((a, b) => b.number - a.number)[0];
  return issue ? { issue, duplicates: open.slice(1) } : { duplicates: [] };
}
