// Who may ask for a preview, and what a newer push does to the preview of an
// older one: `/undrift preview` from a read-only user is answered and queues
// nothing; from a writer it queues the preview again under a fresh job id;
// a synchronize removes the waiting job of the older head, and a job whose head
// is no longer the latest ends without a GitHub request; a head whose preview
// job failed is queued again by its next delivery, a redelivery included.
import { randomUUID } from "node:crypto";
import { UnrecoverableError, Worker } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { enqueuePreview, previewJobId } from "../../src/queue/enqueue-preview.ts";
import { type PreviewJob, scanQueueName } from "../../src/queue/jobs.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { fakePullRequest } from "../helpers/app-github-preview.ts";
import { sha40 } from "../helpers/app-github-replies.ts";
import { type AppHarness, openAppHarness } from "../helpers/app-harness.ts";
import { issueCommentPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { eventually } from "../helpers/controllers.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const commit = (seed: string) => ({ sha: sha40(seed), treeSha: sha40(`${seed}-tree`), archive: Buffer.alloc(0) });
const configText = stringify({
  targets: [{ name: "infra", cluster: "test", path: "manifests", namespace: "default" }],
});

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function open() {
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const base = commit("base");
  const gh = fakeRepo({ github, head: base });
  const pr = fakePullRequest({ github, gh, number: 12, base, head: commit("head-1") });
  return { h, gh, pr };
}

/** Takes the test cluster's waiting job with a real BullMQ worker that fails it for good, as a refused cluster does. */
async function failWaitingJob(h: AppHarness): Promise<string> {
  const queue = h.redis.queues.scan("test");
  const [job] = await queue.getWaiting();
  const id = job?.id ?? "";
  const connection = createRedisConnection({ role: "worker", url: h.redis.url, name: "preview-failer" });
  const worker = new Worker(
    scanQueueName("test"),
    async () => {
      throw new UnrecoverableError("cluster test: unreachable");
    },
    { connection, prefix: h.redis.queues.prefix },
  );
  await eventually(`job ${id} failed`, async () => ((await queue.getJobState(id)) === "failed" ? true : undefined));
  await worker.close();
  await connection.quit();
  return id;
}

describe("/undrift preview and newer pushes", () => {
  it("answers a read-only user with a short refusal and queues nothing", async () => {
    const { h, gh, pr } = await open();
    gh.expectToken();
    pr.expectPermission("mallory", "read");
    pr.expectComments({ create: 1 });
    const payload = issueCommentPayload(gh, {
      number: 12,
      issueBody: "Bumps the web replicas.",
      body: "/undrift preview",
      author: "mallory",
      pullRequest: true,
    });
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);
    expect(pr.comments.map((c) => c.body)).toEqual([
      "@mallory: `/undrift preview` needs write access to acme/gitops; no preview was started.",
    ]);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
  });

  it("queues the preview again for a writer, under a fresh job id", async () => {
    const { h, gh, pr } = await open();
    gh.expectToken();
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    await h.deliver("pull_request", pr.payload("opened"));
    pr.expectPermission("bob", "write");
    pr.expectGet();
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    const payload = issueCommentPayload(gh, {
      number: 12,
      issueBody: "Bumps the web replicas.",
      body: "Cluster changed, again please.\n/undrift preview",
      author: "bob",
      pullRequest: true,
    });
    expect((await h.deliver("issue_comment", payload)).status).toBe(200);
    const waiting = await h.redis.queues.scan("test").getWaiting();
    // The event's job was still waiting: the refresh replaced it.
    expect(waiting.map((job) => [job.name, job.data.reason])).toEqual([["preview", "comment"]]);
    expect(waiting[0]?.id).toMatch(new RegExp(`^preview@acme/gitops#12@test@${pr.head.sha}@[0-9a-f]{8}$`));
    expect(github.writes().map((r) => r.operationId)).toEqual(["apps/create-installation-access-token"]);
  });

  it("queues a head whose preview failed again on its next delivery, a redelivery or a reopen, under a fresh id", async () => {
    const { h, gh, pr } = await open();
    const fresh = new RegExp(`^preview@acme/gitops#12@test@${pr.head.sha}@[0-9a-f]{8}$`);
    const waitingIds = async () => (await h.redis.queues.scan("test").getWaiting()).map((job) => job.id);
    gh.expectToken();
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    const delivery = randomUUID();
    await h.deliver("pull_request", pr.payload("opened"), { id: delivery });
    const first = await failWaitingJob(h);
    expect(first).toBe(`preview@acme/gitops#12@test@${pr.head.sha}`);

    // GitHub's Redeliver of the same delivery: its handler succeeded, but the job it queued failed.
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    expect((await h.deliver("pull_request", pr.payload("opened"), { id: delivery })).status).toBe(200);
    const [second] = await waitingIds();
    expect(second).toMatch(fresh);
    await failWaitingJob(h);

    // Reopened on the same head.
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    expect((await h.deliver("pull_request", pr.payload("reopened"))).status).toBe(200);
    const [third] = await waitingIds();
    expect(third).toMatch(fresh);
    expect(third).not.toBe(second);

    // While that job waits, another delivery of the head adds nothing and asks GitHub nothing.
    const mark = github.requests.length;
    expect((await h.deliver("pull_request", pr.payload("reopened"))).status).toBe(200);
    expect(await waitingIds()).toEqual([third]);
    expect(github.requests.slice(mark)).toEqual([]);
  });

  it("ignores drafts, undrift's own branches and forks until asked", async () => {
    const { h, gh, pr } = await open();
    await h.deliver("pull_request", pr.payload("opened", { draft: true }));
    await h.deliver("pull_request", pr.payload("opened", { headRef: "undrift/codify/infra" }));
    const fork = pr.payload("opened") as { pull_request: { head: { repo: { full_name: string } } } };
    fork.pull_request.head.repo.full_name = "mallory/gitops";
    await h.deliver("pull_request", fork);
    expect(github.requests).toEqual([]);
    expect(await h.redis.queues.scan("test").count()).toBe(0);
    expect(gh.owner).toBe("acme");
  });

  it("removes the waiting job of an older push, and a job of an older head ends without asking GitHub", async () => {
    const { h, gh, pr } = await open();
    const first = pr.head;
    gh.expectToken();
    gh.expectConfig(configText, { ref: first.sha });
    pr.expectCompare();
    await h.deliver("pull_request", pr.payload("opened"));
    pr.head = commit("head-2");
    gh.expectConfig(configText, { ref: pr.head.sha });
    pr.expectCompare();
    await h.deliver("pull_request", pr.payload("synchronize"));
    const waiting = (await h.redis.queues.scan("test").getWaiting()) as unknown as Array<{
      id: string;
      data: PreviewJob;
    }>;
    expect(waiting.map((job) => job.data.head)).toEqual([pr.head.sha]);

    // A job of the first head that was already running when the push came: it ends early.
    const stale: PreviewJob = { ...(waiting[0]?.data as PreviewJob), head: first.sha };
    await h.redis.queues.scan("test").remove(waiting[0]?.id ?? "");
    await enqueuePreview({ queues: h.redis.queues, job: stale, jobId: previewJobId(stale) });
    const mark = github.requests.length;
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(job?.returnvalue).toEqual({ outcome: "superseded", head: first.sha, actions: [] });
    expect(github.requests.slice(mark)).toEqual([]);
  });
});
