// A correctly signed delivery about a repository whose `repository` is null, into the whole app (Probot's
// middleware, every handler, real Redis): a 400 with the reason and nothing done, never a 500 with a TypeError.
import { afterEach, describe, expect, it } from "vitest";
import { type AppHarness, openAppHarness } from "../helpers/app-harness.ts";
import {
  issueCommentPayload,
  issuesEditedPayload,
  pullRequestClosedPayload,
  pushPayload,
} from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const repo = { owner: "acme", repo: "gitops", installationId: 4711 };

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("a signed delivery whose repository is null", () => {
  it.each([
    ["push", "", () => pushPayload(repo, { before: "a".repeat(40), after: "b".repeat(40) })],
    [
      "pull_request",
      "closed",
      () => pullRequestClosedPayload(repo, { number: 3, headRef: "undrift/revert/x", merged: true }),
    ],
    [
      "pull_request",
      "opened",
      () => ({ ...pullRequestClosedPayload(repo, { number: 3, headRef: "f", merged: false }), action: "opened" }),
    ],
    [
      "issue_comment",
      "created",
      () => issueCommentPayload(repo, { number: 2, issueBody: "", body: "/undrift scan", author: "alice" }),
    ],
    [
      "issues",
      "edited",
      () => issuesEditedPayload(repo, { number: 2, before: "- [ ] a", after: "- [x] a", sender: "alice" }),
    ],
  ])("%s %s gets 400 with the reason, and the app asks GitHub nothing", async (event, _action, payload) => {
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const mark = github.requests.length;
    const answer = await h.deliver(event, { ...payload(), repository: null }, { id: "bad-1" });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(
      new RegExp(
        `^WebhookPayloadError: ${event}(\\.\\w+)? delivery bad-1: payload\\.repository is null; this event names the repository it is about$`,
      ),
    );
    expect(github.requests.slice(mark)).toEqual([]);
  });
});
