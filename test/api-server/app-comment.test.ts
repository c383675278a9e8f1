// `/undrift scan` in a comment on a target's tracking issue or drift pull
// request, as GitHub delivers it: a user with write access gets a scan of the
// target the marker names, queued with reason `comment`; anyone else gets a
// short reply, and nothing is queued.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { formatMarker } from "../../src/report/markers.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { expectPrComments } from "../helpers/app-github-comments.ts";
import { sha40 } from "../helpers/app-github-replies.ts";
import { type AppHarness, openAppHarness } from "../helpers/app-harness.ts";
import { issueCommentPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const head = { sha: sha40("head"), treeSha: sha40("tree"), archive: Buffer.alloc(0) };
const configText = stringify({
  targets: [
    { name: "infra", cluster: "test", path: "manifests", namespace: "default" },
    { name: "apps", cluster: "test", path: "apps", namespace: "default" },
  ],
});

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function expectPermission(username: string, role: "admin" | "maintain" | "write" | "read") {
  github.expect({
    method: "GET",
    path: `/repos/acme/gitops/collaborators/${username}/permission`,
    reply: {
      body: {
        permission: role === "maintain" ? "write" : role,
        role_name: role,
        user: { login: username, id: 1, type: "User" },
      },
    },
  });
}

describe("/undrift scan in a comment", () => {
  it("queues a scan of the marker's target when a user with write access asks, on a drift pull request", async () => {
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head });
    gh.expectToken();
    expectPermission("bob", "maintain");
    gh.expectConfig(configText);
    const issueBody = `${formatMarker("pr", { target: "apps", mode: "codify", fingerprint: "ab12" })}\nThe report.`;
    const payload = issueCommentPayload(gh, {
      number: 3,
      issueBody,
      body: "Merged the fix, please check again.\n/undrift scan",
      author: "bob",
      pullRequest: true,
    });
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);

    const waiting = await h.redis.queues.scan("test").getWaiting();
    expect(waiting.map((job) => job.data)).toEqual([
      { installationId: gh.installationId, repo: "acme/gitops", target: "apps", cluster: "test", reason: "comment" },
    ]);
    expect(github.writes().map((r) => r.operationId)).toEqual(["apps/create-installation-access-token"]);
  });

  it("answers a read-only user with a short refusal and queues nothing", async () => {
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head });
    gh.expectToken();
    expectPermission("mallory", "read");
    expectPrComments(github, gh, 5, { create: 1 });
    const issueBody = `${formatMarker("tracking", { target: "infra", digest: "cd34" })}\nDrift report.`;
    const payload = issueCommentPayload(gh, { number: 5, issueBody, body: "/undrift scan", author: "mallory" });
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);

    expect(gh.state.comments).toEqual([
      { issue: 5, body: "@mallory: `/undrift scan` needs write access to acme/gitops; no scan was started." },
    ]);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.map((a) => [a.event, a.target, a.actor])).toEqual([["refusal", "infra", "mallory"]]);
  });

  it("ignores comments without the command, and issues undrift did not open", async () => {
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head });
    const marker = formatMarker("tracking", { target: "infra", digest: "cd34" });
    const chatter = issueCommentPayload(gh, {
      number: 5,
      issueBody: marker,
      body: "why /undrift scan?",
      author: "bob",
    });
    expect((await h.deliver("issue_comment", chatter)).status).toBe(200);
    const elsewhere = issueCommentPayload(gh, { number: 6, issueBody: "A bug.", body: "/undrift scan", author: "bob" });
    expect((await h.deliver("issue_comment", elsewhere)).status).toBe(200);
    expect(github.requests).toEqual([]);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
  });
});
