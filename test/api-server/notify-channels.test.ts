// Notifications end to end from a scan's report to local receivers (node:http
// on loopback) through real Redis and the notify queue's worker: each kind's
// payload and the webhook's signature, one message per new drift (not per
// scan, not per redelivery), resolved, retries after 500 and 429 (Retry-After
// honoured), a 4xx failing for good and only its own channel's job, a worker
// closed mid-send, and reminders while the drift stays.
import { createHmac } from "node:crypto";
import type { Probot } from "probot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClusterRegistry } from "../../src/config/cluster-registry.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import type { NotificationConfig } from "../../src/config/notification-schema.ts";
import { parseServerEnv } from "../../src/config/server-env.ts";
import { buildReport } from "../../src/drift/build-report.ts";
import { metrics } from "../../src/metrics/undrift-metrics.ts";
import type { DriftReport } from "../../src/model/types.ts";
import { NOTIFY_QUEUE } from "../../src/queue/notify-jobs.ts";
import { type NotifyWorker, startNotifyWorker } from "../../src/queue/notify-worker.ts";
import { startWorkers } from "../../src/server/workers.ts";
import { lastValidConfig } from "../../src/state/last-valid-config.ts";
import { notifyFailure } from "../../src/worker/notify/notify-failure.ts";
import { notifyScan } from "../../src/worker/notify/notify-scan.ts";
import { scanLinks } from "../../src/worker/notify/scan-links.ts";
import { sendNotification } from "../../src/worker/notify/send-notification.ts";
import { type NotifyReceiver, notifyReceiver } from "../helpers/notify-receiver.ts";
import { gate, openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";
import { compare, fixtureCase } from "../unit/drift/drift-fixtures.ts";

const SECRET = "whsec-test-key";
const base64 = (text: string) => Buffer.from(text).toString("base64");
const secretValues = ["s3cret-pa55w0rd", "hunter2-hotfix", "shop-app"].flatMap((v) => [v, base64(v)]);

let t: TestRedis;
let rx: NotifyReceiver;
let registry: ClusterRegistry;
let worker: NotifyWorker | undefined;

beforeEach(async () => {
  t = await openTestRedis();
  rx = await notifyReceiver();
  registry = {
    clusters: {},
    channels: {
      slack: { kind: "slack", url: `${rx.base}/slack`, repositories: ["acme/*"] },
      teams: { kind: "teams", url: { env: "UNDRIFT_TEST_TEAMS_URL" }, repositories: ["acme/gitops"] },
      hook: { kind: "webhook", url: `${rx.base}/hook`, secret: SECRET, repositories: ["acme/*"] },
    },
  };
  process.env.UNDRIFT_TEST_TEAMS_URL = `${rx.base}/teams`;
});

afterEach(async () => {
  await worker?.close({ graceMs: 0 });
  worker = undefined;
  await t.queues.notify().obliterate({ force: true });
  await t.cleanup();
  await rx.close();
  delete process.env.UNDRIFT_TEST_TEAMS_URL;
});

function startWorker() {
  worker = startNotifyWorker({
    queues: t.queues,
    connection: t.workerConnection,
    log: t.log,
    send: (job, context) => sendNotification({ queues: t.queues, registry, job, context }),
  });
  return worker;
}

const deps = () => ({ queues: t.queues, registry, log: t.log });
const every = (channel: string, remindMs = 0): NotificationConfig => ({
  channel,
  events: ["drift", "resolved", "heal", "fight", "failing", "prune-refused"],
  remind: remindMs ? "1h" : "0s",
  remindMs,
});
const allThree = () => [every("slack"), every("teams"), every("hook")];

async function driftedSecret(): Promise<DriftReport> {
  const pair = fixtureCase("secret-edited");
  const comparison = await compare(pair);
  return buildReport({
    target: "shop",
    revision: "0c5f3e1a9b8c7d6e5f40312a9b8c7d6e5f403120",
    pairings: [
      {
        desired: { object: pair.desired, source: { file: "shop/secret.yaml", document: 0 } },
        live: pair.live,
        comparison,
      },
    ],
    problems: [],
  });
}

const clean = (): DriftReport =>
  buildReport({ target: "shop", revision: "1c5f3e1a9b8c7d6e5f40312a9b8c7d6e5f403120", pairings: [], problems: [] });

const scan = (report: DriftReport, scanJobId: string, notifications = allThree()) =>
  notifyScan({
    deps: deps(),
    repo: "acme/gitops",
    notifications,
    cluster: "prod-eu",
    report,
    mode: { done: [], lines: [] },
    links: scanLinks({
      checkUrl: "https://github.com/acme/gitops/runs/42",
      mode: { done: [], lines: ["Tracking issue: #7 https://github.com/acme/gitops/issues/7"] },
    }),
    scanJobId,
  });

async function settled(count: number) {
  const queue = t.queues.notify();
  return waitFor(`${count} notify jobs to settle`, async () => {
    const counts = await queue.getJobCounts("completed", "failed");
    return (counts.completed ?? 0) + (counts.failed ?? 0) >= count ? counts : undefined;
  });
}

describe("notifications of a scan", () => {
  it("sends new drift once to each channel in its kind's shape, the webhook signed over timestamp.body", async () => {
    startWorker();
    expect(await scan(await driftedSecret(), "scan-1")).toHaveLength(3);
    await settled(3);

    const slack = JSON.parse(rx.to("/slack")[0]!.body);
    expect(slack.text).toBe("Drift found: shop on prod-eu (1 drifted, 0 missing, 0 orphaned)");
    expect(slack.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "Drift found: shop on prod-eu" },
    });
    expect(JSON.stringify(slack.blocks)).toContain("v1 Secret shop/db-credentials");
    expect(slack.blocks.at(-1).elements.map((e: { url: string }) => e.url)).toEqual([
      "https://github.com/acme/gitops/issues/7",
      "https://github.com/acme/gitops/runs/42",
      "https://github.com/acme/gitops",
    ]);

    const teams = JSON.parse(rx.to("/teams")[0]!.body);
    expect(teams.attachments[0].contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(teams.attachments[0].content.type).toBe("AdaptiveCard");

    const hook = rx.to("/hook")[0]!;
    const timestamp = String(hook.headers["x-undrift-timestamp"]);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    const expected = createHmac("sha256", SECRET).update(`${timestamp}.${hook.body}`).digest("hex");
    expect(hook.headers["x-undrift-signature-256"]).toBe(`sha256=${expected}`);
    expect(hook.headers["x-undrift-event"]).toBe("drift");
    expect(JSON.parse(hook.body)).toMatchObject({
      event: "drift",
      repo: "acme/gitops",
      target: "shop",
      counts: { drifted: 1 },
    });

    for (const request of rx.requests) for (const value of secretValues) expect(request.body).not.toContain(value);
    // Nor in Redis, where the jobs and the state are kept.
    const jobs = await t.queues.notify().getJobs(["completed"]);
    for (const value of secretValues) expect(JSON.stringify(jobs.map((j) => j.data))).not.toContain(value);
  });

  it("sends nothing more for the same result scanned again, a scan job run again, or one run again before it saved what it sent", async () => {
    startWorker();
    const report = await driftedSecret();
    await scan(report, "scan-1");
    expect(await scan(report, "scan-2")).toEqual([]);
    expect(await scan(report, "scan-1")).toEqual([]);
    // A scan job that added its jobs and died before saving the state: its rerun adds the same delivery ids.
    await t.redis.del(`${t.prefix}:notify:acme/gitops:shop`);
    expect(await scan(report, "scan-1")).toHaveLength(3);
    await settled(3);
    expect(await t.queues.notify().getJobCounts("completed", "waiting", "delayed")).toEqual({
      completed: 3,
      waiting: 0,
      delayed: 0,
    });
    expect(rx.requests.map((r) => r.path).sort()).toEqual(["/hook", "/slack", "/teams"]);
  });

  it("says resolved when the drift is gone, once, and drift again when it comes back", async () => {
    startWorker();
    await scan(await driftedSecret(), "scan-1");
    await scan(clean(), "scan-2");
    await scan(clean(), "scan-3");
    await settled(6);
    await scan(await driftedSecret(), "scan-4");
    await settled(9);
    const events = rx.to("/hook").map((r) => JSON.parse(r.body).event);
    expect(events).toEqual(["drift", "resolved", "drift"]);
    expect(JSON.parse(rx.to("/slack")[1]!.body).text).toBe(
      "Drift resolved: shop on prod-eu (0 drifted, 0 missing, 0 orphaned)",
    );
  });

  it("leaves out a channel the server does not let the repository use, and still sends to the others", async () => {
    startWorker();
    const queued = await notifyScan({
      deps: deps(),
      repo: "acme/apps",
      notifications: [every("teams"), every("nowhere"), every("hook")],
      cluster: "prod-eu",
      report: await driftedSecret(),
      mode: { done: [], lines: [] },
      links: {},
      scanJobId: "scan-1",
    });
    expect(queued).toEqual(["queued drift notification to hook"]);
    await settled(1);
    expect(rx.requests.map((r) => r.path)).toEqual(["/hook"]);
    expect(t.log.entries.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        'notifications: repository acme/apps may not use channel "teams"; not sent there',
        'notifications: channel "nowhere" is not in the server\'s channels; not sent there',
      ]),
    );
  });

  it("sends what heal did and a fight once, not again while they repeat", async () => {
    startWorker();
    const mode = {
      done: [
        {
          event: "heal",
          summary: "healed v1 Secret shop/db-credentials",
          fields: ["Secret/shop/db-credentials:/data/password"],
        },
        { event: "heal-stopped", summary: "stopped healing /spec/replicas of apps/v1 Deployment shop/web" },
      ],
      lines: [],
    };
    const run = (scanJobId: string) =>
      notifyScan({
        deps: deps(),
        repo: "acme/gitops",
        notifications: [every("hook")],
        cluster: "prod-eu",
        report: clean(),
        mode,
        links: {},
        scanJobId,
      });
    expect(await run("scan-1")).toEqual(["queued heal notification to hook", "queued fight notification to hook"]);
    expect(await run("scan-2")).toEqual([]);
    await settled(2);
    expect(rx.requests.map((r) => JSON.parse(r.body).summary)).toEqual([
      "healed v1 Secret shop/db-credentials",
      "stopped healing /spec/replicas of apps/v1 Deployment shop/web",
    ]);
  });

  it("tells the channels a failing scan once per error, from the last valid config", async () => {
    startWorker();
    const config = loadConfig(
      "targets:\n  - name: shop\n    cluster: prod-eu\n    path: shop\nnotifications:\n  - channel: hook\n    events: [failing]\n",
    );
    await lastValidConfig({ redis: t.redis, prefix: t.prefix }).set("acme/gitops", config);
    const job = {
      installationId: 7,
      repo: "acme/gitops",
      target: "shop",
      cluster: "prod-eu",
      reason: "schedule" as const,
    };
    const failure = {
      deps: deps(),
      job,
      message: "failed: prod-eu: not reachable",
      revision: "0c5f3e1a9b8c7d6e5f40312a9b8c7d6e5f403120",
    };
    await notifyFailure(failure);
    await notifyFailure(failure);
    await settled(1);
    expect(rx.requests.map((r) => [r.headers["x-undrift-event"], JSON.parse(r.body).summary])).toEqual([
      ["failing", "failed: prod-eu: not reachable"],
    ]);
  });
});

describe("sending", () => {
  it("retries after a 500 and a 429 (not before its Retry-After), fails for good on a 4xx, and only that channel's job", async () => {
    rx.script("/slack", { status: 500 }, { status: 429, headers: { "retry-after": "1" } });
    rx.script("/teams", { status: 400 });
    startWorker();
    await scan(await driftedSecret(), "scan-1");
    await settled(3);
    const slack = rx.to("/slack");
    expect(slack).toHaveLength(3);
    expect(slack[2]!.at - slack[1]!.at).toBeGreaterThanOrEqual(950);
    expect(rx.to("/teams")).toHaveLength(1);
    expect(rx.to("/hook")).toHaveLength(1);
    const failed = await t.queues.notify().getJobs(["failed"]);
    expect(failed.map((j) => [j.data.channel, j.attemptsMade, j.failedReason])).toEqual([
      ["teams", 1, 'channel "teams" (teams): answered 400'],
    ]);
    // The log names the channel and the status, never its URL.
    expect(JSON.stringify(t.log.entries)).not.toContain(rx.base);
  });

  it("does not post a delivery again when its job runs again after the channel accepted it", async () => {
    startWorker();
    await scan(await driftedSecret(), "scan-1", [every("hook")]);
    const [done] = await settled(1).then(() => t.queues.notify().getJobs(["completed"]));
    const again = await sendNotification({
      queues: t.queues,
      registry,
      job: done!.data,
      context: { delivery: done!.id!, attempt: 1, signal: new AbortController().signal },
    });
    expect(again).toEqual({ outcome: "already-sent" });
    expect(rx.requests).toHaveLength(1);
  });

  it("lets a send in flight finish when the worker is closed, and the restarted worker does not send it again", async () => {
    const held = gate();
    rx.script("/hook", { status: 200, hold: held.promise });
    startWorker();
    await scan(await driftedSecret(), "scan-1", [every("hook")]);
    await waitFor("the post to reach the receiver", () => rx.requests.length === 1);
    const closing = worker!.close({ graceMs: 30_000 });
    held.open();
    await closing;
    worker = undefined;
    expect(await t.queues.notify().getJobCounts("completed", "waiting", "active")).toEqual({
      completed: 1,
      waiting: 0,
      active: 0,
    });
    startWorker();
    // Something new after the restart, so the new worker has surely looked at the queue.
    await scan(clean(), "scan-2", [every("hook")]);
    await settled(2);
    expect(rx.requests.map((r) => r.headers["x-undrift-event"])).toEqual(["drift", "resolved"]);
  });

  it("hands a send cut off by shutdown back, and posts it once more with the same delivery id", async () => {
    const held = gate();
    rx.script("/hook", { status: 200, hold: held.promise });
    startWorker();
    await scan(await driftedSecret(), "scan-1", [every("hook")]);
    await waitFor("the post to reach the receiver", () => rx.requests.length === 1);
    await worker!.close({ graceMs: 0 });
    worker = undefined;
    held.open();
    expect(await t.queues.notify().getJobCounts("waiting", "completed")).toEqual({ waiting: 1, completed: 0 });
    startWorker();
    await settled(1);
    const deliveries = rx.requests.map((r) => r.headers["x-undrift-delivery"]);
    // The receiver saw the cut-off attempt, with no answer read: the id lets it tell the retry is the same message.
    expect(deliveries).toHaveLength(2);
    expect(new Set(deliveries).size).toBe(1);
  });
});

describe("reminders", () => {
  it("remind while the same drift stays, and stop once it is resolved", async () => {
    startWorker();
    await scan(await driftedSecret(), "scan-1", [every("hook", 3_600_000)]);
    const queue = t.queues.notify();
    const firstReminder = await waitFor(
      "the first reminder to be scheduled",
      async () => (await queue.getJobs(["delayed"]))[0],
    );
    expect(firstReminder.opts.delay).toBe(3_600_000);
    await firstReminder.promote();
    const secondReminder = await waitFor(
      "the second reminder to be scheduled",
      async () => (await queue.getJobs(["delayed"]))[0],
    );
    const reminder = JSON.parse(rx.requests[1]!.body);
    expect(reminder).toMatchObject({ event: "drift", reminder: 1 });

    await scan(clean(), "scan-2", [every("hook", 3_600_000)]);
    await secondReminder.promote();
    await waitFor(
      "the second reminder to be dropped",
      async () => (await queue.getJobState(secondReminder.id!)) === "completed",
    );
    expect((await queue.getJob(secondReminder.id!))?.returnvalue).toEqual({ outcome: "no-longer-due" });
    expect(rx.requests.map((r) => JSON.parse(r.body)).map((b) => [b.event, b.reminder])).toEqual([
      ["drift", 0],
      ["drift", 1],
      ["resolved", 0],
    ]);
    expect(await queue.getJobCounts("delayed")).toEqual({ delayed: 0 });
  });
});

describe("snoozed objects", () => {
  it("stop the reminders that name them; the rest of the drift is reminded of, and not announced again", async () => {
    startWorker();
    const pairOf = async (name: string, file: string) => {
      const pair = fixtureCase(name);
      return {
        desired: { object: pair.desired, source: { file, document: 0 } },
        live: pair.live,
        comparison: await compare(pair),
      };
    };
    const pairings = [
      await pairOf("secret-edited", "shop/secret.yaml"),
      await pairOf("deployment-scaled", "shop/web.yaml"),
    ];
    const revision = "0c5f3e1a9b8c7d6e5f40312a9b8c7d6e5f403120";
    const both = buildReport({ target: "shop", revision, pairings, problems: [] });
    const secret = both.resources.find((r) => r.kind === "Secret")!;
    const secretRef = {
      apiVersion: secret.apiVersion,
      kind: secret.kind,
      namespace: secret.namespace,
      name: secret.name,
    };
    const onlyWeb = buildReport({ target: "shop", revision, pairings: pairings.slice(1), problems: [] });
    const hook = [every("hook", 3_600_000)];
    const queue = t.queues.notify();
    const delayed = async () => (await queue.getJobs(["delayed"]))[0];

    await scan(both, "scan-1", hook);
    const firstReminder = await waitFor("the first reminder to be scheduled", delayed);

    // The Secret snoozed: nothing sent now, and a reminder of the Deployment alone is scheduled.
    const queued = await notifyScan({
      deps: deps(),
      repo: "acme/gitops",
      notifications: hook,
      cluster: "prod-eu",
      report: onlyWeb,
      snoozed: { refs: [secretRef], unsnoozed: both },
      mode: { done: [], lines: [] },
      links: { repository: "https://github.com/acme/gitops" },
      scanJobId: "scan-2",
    });
    expect(queued).toEqual(["queued drift reminder to hook"]);
    await firstReminder.promote();
    await waitFor(
      "the first reminder to be dropped",
      async () => (await queue.getJobState(firstReminder.id!)) === "completed",
    );
    expect((await queue.getJob(firstReminder.id!))?.returnvalue).toEqual({ outcome: "no-longer-due" });
    const webReminder = (await queue.getJobs(["delayed"])).find((j) => j.id !== firstReminder.id)!;
    expect(webReminder.opts.delay).toBe(3_600_000);
    await webReminder.promote();
    await waitFor("the reminder of the Deployment", () => rx.requests[1]);
    const bodies = rx.requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.event, b.reminder, b.objects.map((o: { status: string }) => o.status).length])).toEqual(
      [
        ["drift", 0, 2],
        ["drift", 1, 1],
      ],
    );
    expect(bodies[1].objects[0].label).toContain("Deployment");
  });
});

describe("the worker process", () => {
  it("sends notifications from the workers `undrift worker` starts, when the registry has channels", async () => {
    registry.clusters = { test: { inCluster: true, repositories: ["acme/*"] } };
    const env = parseServerEnv(
      { REDIS_URL: t.url, UNDRIFT_CLUSTERS: "/etc/undrift/clusters.yml" },
      { requireClusters: true },
    );
    // No scan runs here, so the workers never ask the App for a client.
    const started = startWorkers({ probot: {} as Probot, queues: t.queues, registry, env, probes: "test", log: t.log });
    try {
      await scan(await driftedSecret(), "scan-1", [every("hook")]);
      await settled(1);
      expect(rx.requests.map((r) => r.path)).toEqual(["/hook"]);
      // Its queue is on /metrics beside the scan queues.
      expect(await metrics.registry.metrics()).toContain(
        'undrift_queue_jobs{queue="undrift-notify",state="completed"} 1',
      );
    } finally {
      await started.close({ graceMs: 1000 });
      await t.queues.scan("test").obliterate({ force: true });
    }
  });
});

// Keep the queue name in view: the chart and operators watch it.
it("uses the undrift-notify queue", () => {
  expect(NOTIFY_QUEUE).toBe("undrift-notify");
});
