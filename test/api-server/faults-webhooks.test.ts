// Faults on the webhook side, as GitHub (or a forger) sends them to the real
// Probot middleware: a delivery GitHub sends again with the same delivery id
// (its "Redeliver" button, or a retry after a timeout) must cost one set of
// writes and jobs, not two; a payload whose signature is wrong, or missing, is
// refused before any handler runs: no GitHub request, no job, no Redis key.
import { createHmac, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { formatMarker } from "../../src/report/markers.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { expectPrComments } from "../helpers/app-github-comments.ts";
import { sha40 } from "../helpers/app-github-replies.ts";
import { type AppHarness, openAppHarness, WEBHOOK_SECRET } from "../helpers/app-harness.ts";
import { installationPayload, issueCommentPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const head = { sha: sha40("head"), treeSha: sha40("tree"), archive: Buffer.alloc(0) };
const configText = stringify({
  targets: [{ name: "infra", cluster: "test", path: "manifests", namespace: "default" }],
});

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const harness = () =>
  openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });

/** Every key under the test's prefix: what a delivery left in Redis. */
async function keys(app: AppHarness): Promise<string[]> {
  return (await app.redis.redis.keys(`${app.redis.prefix}:*`)).sort();
}

function expectPermission(username: string, role: "write" | "read") {
  github.expect({
    method: "GET",
    path: `/repos/acme/gitops/collaborators/${username}/permission`,
    reply: { body: { permission: role, role_name: role, user: { login: username, id: 1, type: "User" } } },
  });
}

describe("a delivery GitHub sends twice", () => {
  it("schedules an installation's targets once: one config read, one scan job, one audit entry", async () => {
    h = await harness();
    const gh = fakeRepo({ github, head });
    gh.expectToken();
    gh.expectConfig(configText);
    const id = randomUUID();
    const payload = installationPayload(gh, "created");
    expect((await h.deliver("installation", payload, { id })).status).toBe(200);
    const afterFirst = await keys(h);
    expect((await h.deliver("installation", payload, { id })).status).toBe(200);

    const jobs = await h.redis.queues.scan("test").getJobs(["waiting", "delayed", "prioritized"]);
    expect(jobs.map((job) => [job.data.target, job.data.reason])).toEqual([["infra", "install"]]);
    // An install scan has no revision, so BullMQ numbers it: the queue's first job, and no second was added.
    expect(jobs[0]?.id).toBe("1");
    expect(await h.redis.redis.get(`${h.redis.prefix}:undrift-scan.test:id`)).toBe("1");
    expect((await h.redis.queues.schedule.getJobSchedulers()).map((s) => s.key)).toEqual(["acme/gitops#infra"]);
    expect(github.requests.map((r) => r.operationId).filter((op) => op === "repos/get-content")).toHaveLength(1);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.filter((a) => a.event === "schedule")).toHaveLength(1);
    // The second delivery changed nothing in Redis but its own "seen" mark, which the first already set.
    expect(await keys(h)).toEqual(afterFirst);
  });

  it("answers a refused /undrift scan with one reply, not one per delivery", async () => {
    h = await harness();
    const gh = fakeRepo({ github, head });
    gh.expectToken();
    expectPermission("mallory", "read");
    expectPrComments(github, gh, 5, { create: 1 });
    const issueBody = `${formatMarker("tracking", { target: "infra", digest: "cd34" })}\nDrift report.`;
    const payload = issueCommentPayload(gh, { number: 5, issueBody, body: "/undrift scan", author: "mallory" });
    const id = randomUUID();
    for (let i = 0; i < 3; i++) expect((await h.deliver("issue_comment", payload, { id })).status).toBe(200);
    expect(gh.state.comments).toHaveLength(1);
    expect(github.writes().map((r) => r.operationId)).toEqual([
      "apps/create-installation-access-token",
      "issues/create-comment",
    ]);
  });

  it("still queues one scan per distinct delivery of a comment command (a new comment is a new request)", async () => {
    h = await harness();
    const gh = fakeRepo({ github, head });
    // Probot keeps the installation's token between deliveries.
    gh.expectToken();
    for (let i = 0; i < 2; i++) expectPermission("bob", "write");
    gh.expectConfig(configText, { times: 2 });
    const issueBody = `${formatMarker("tracking", { target: "infra", digest: "cd34" })}\nDrift report.`;
    const payload = issueCommentPayload(gh, { number: 5, issueBody, body: "/undrift scan", author: "bob" });
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);
    await (await h.redis.queues.scan("test").getWaiting())[0]?.remove();
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);
    expect(await h.redis.queues.scan("test").getWaitingCount()).toBe(1);
  });

  it("handles a redelivery again when the first delivery failed, so GitHub's retry is not lost", async () => {
    h = await harness();
    const gh = fakeRepo({ github, head });
    gh.expectToken();
    github.expect({
      method: "GET",
      path: "/repos/acme/gitops/contents/.github/undrift.yml",
      reply: { status: 502, body: { message: "Server Error" } },
    });
    const id = randomUUID();
    const payload = installationPayload(gh, "created");
    // Probot answers with GitHub's status, so the delivery shows as failed in the app's settings.
    expect((await h.deliver("installation", payload, { id })).status).toBe(502);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    gh.expectConfig(configText);
    expect((await h.deliver("installation", payload, { id })).status).toBe(200);
    expect(await h.redis.queues.scan("test").count()).toBe(1);
  });
});

describe("a delivery that GitHub did not sign", () => {
  const mismatch = "signature does not match event payload and secret";
  const hmac = (secret: string, body: string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const cases: Array<[string, (body: string) => string | null, string]> = [
    ["a wrong signature", () => `sha256=${"0".repeat(64)}`, mismatch],
    ["a signature made with another secret", (body) => hmac("not-the-app-secret", body), mismatch],
    ["the right secret's signature of another payload", () => hmac(WEBHOOK_SECRET, "{}"), mismatch],
    ["no signature at all", () => null, "Required headers missing: x-hub-signature-256"],
  ];
  it.each(cases)("refuses %s with a 400 and acts on nothing", async (_, sign, why) => {
    h = await harness();
    const gh = fakeRepo({ github, head });
    // Opening a queue writes its meta key; open them before the snapshot of what is there.
    await h.redis.queues.scan("test").count();
    const before = await keys(h);
    const issueBody = `${formatMarker("tracking", { target: "infra", digest: "cd34" })}\nDrift report.`;
    const forged = [
      ["installation", installationPayload(gh, "created")],
      ["issue_comment", issueCommentPayload(gh, { number: 5, issueBody, body: "/undrift scan", author: "eve" })],
    ] as const;
    for (const [name, payload] of forged) {
      const answer = await h.deliver(name, payload, { signature: sign(JSON.stringify(payload)) });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain(why);
    }
    expect(github.requests).toEqual([]);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    expect(await h.redis.queues.schedule.getJobSchedulers()).toEqual([]);
    expect(await keys(h)).toEqual(before);
  });
});
