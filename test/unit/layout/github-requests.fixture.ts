// What github-requests.test.ts must flag and must leave alone, type-checked
// with src/ but never run. Each call's comment says which: the test reads it.
import https from "node:https";
import type { Octokit } from "octokit";
import type { ProbotOctokit } from "probot";
import type { GitHubClient } from "../../../src/github/github-client.ts";

export async function githubCalls(octokit: Octokit, probot: ProbotOctokit, client: GitHubClient): Promise<void> {
  await octokit.request("GET /app"); // flagged
  await probot.paginate("GET /app/installations", { per_page: 100 }); // flagged
  await octokit.graphql("query { viewer { login } }"); // flagged
  const renamed = client;
  await renamed.request("GET /app"); // flagged
}

export async function otherCalls(http: { request(path: string): Promise<unknown> }): Promise<void> {
  https.request("https://example.invalid").end(); // not flagged
  await http.request("/api/v1"); // not flagged
}
