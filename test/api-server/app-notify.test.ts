// Notifications through the app: a warn-mode target with `notifications` in its
// config, scanned by the app's worker against the real test cluster, tells a
// signed webhook channel (a loopback receiver) of the drift once, nothing for
// the next scan of the same drift, and resolved when it is undone by hand; the
// message links to the check run and the tracking issue the scan keeps.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { dashboardState } from "../../src/state/dashboard-state.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { closedPortKubeconfig, kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { type NotifyReceiver, notifyReceiver } from "../helpers/notify-receiver.ts";
import { waitFor } from "../helpers/redis.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const SECRET = "app-notify-secret";
const DAY = 24 * 3600_000;
const appConfig = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
let rx: NotifyReceiver | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  await rx?.close();
  h = s = rx = undefined;
});

describe("a target with notifications", () => {
  it("tells its channel of new drift once, and when it is resolved", async () => {
    rx = await notifyReceiver();
    s = scenario({
      files: { "manifests/web.yaml": web },
      target: { mode: "warn" },
      config: { notifications: [{ channel: "ops", events: ["drift", "resolved"] }] },
    });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({
      clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
      channels: { ops: { kind: "webhook", url: `${rx.base}/ops`, secret: SECRET, repositories: ["acme/*"] } },
    });
    const gh = fakeRepo({ github, head: commit });

    // 1. The first scan finds the drift: one signed message, with where to act.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.returnvalue).toMatchObject({
      outcome: "scanned",
      actions: ["created issue #1", `created check run undrift/${s.target}`, "queued drift notification to ops"],
    });
    const drift = await waitFor("the drift message", () => rx!.requests[0]);
    const timestamp = String(drift.headers["x-undrift-timestamp"]);
    const signature = createHmac("sha256", SECRET).update(`${timestamp}.${drift.body}`).digest("hex");
    expect(drift.headers["x-undrift-signature-256"]).toBe(`sha256=${signature}`);
    const body = JSON.parse(drift.body);
    expect(body).toMatchObject({
      event: "drift",
      repo: "acme/gitops",
      target: s.target,
      cluster: "test",
      revision: commit.sha,
      counts: { drifted: 1, missing: 0, orphaned: 0 },
      objects: [{ label: `apps/v1 Deployment ${s.namespace}/web`, status: "drifted", fields: ["/spec/replicas"] }],
    });
    expect(body.links).toEqual({
      issue: expect.stringMatching(/\/acme\/gitops\/issues\/1$/),
      check: expect.stringMatching(/\/acme\/gitops\/runs\/\d+$/),
      repository: expect.stringMatching(/\/acme\/gitops$/),
    });

    // 2. The same drift scanned again: no message.
    gh.expectHead();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    const [, second] = await h.settled("test", 2);
    expect(second?.returnvalue.actions).toEqual([]);

    // 3. Undone by hand: resolved.
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    gh.expectHead();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    await h.settled("test", 3);
    await waitFor("the resolved message", () => rx!.requests[1]);
    expect(rx.requests.map((r) => r.headers["x-undrift-event"])).toEqual(["drift", "resolved"]);
    expect(JSON.parse(rx.requests[1]!.body)).toMatchObject({ event: "resolved", counts: { drifted: 0 } });
  });

  it("says nothing when objects are snoozed, and tells of drift again once when its snooze ends", {
    timeout: 120_000,
  }, async () => {
    rx = await notifyReceiver();
    s = scenario({
      files: { "manifests/web.yaml": web, "manifests/config.yaml": appConfig },
      target: { mode: "warn" },
      config: { notifications: [{ channel: "ops", events: ["drift", "resolved"] }] },
    });
    await s.applyGit();
    const ns = s.namespace;
    await kubectl(["-n", ns, "scale", "deployment", "web", "--replicas=4"]);
    await kubectl(["-n", ns, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({
      clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
      channels: { ops: { kind: "webhook", url: `${rx.base}/ops`, secret: SECRET, repositories: ["acme/*"] } },
    });
    const gh = fakeRepo({ github, head: commit });
    let clock = Date.parse("2026-12-02T12:00:00Z");
    // What the dashboard's snooze box keeps (app-dashboard.test.ts ticks it through the issue).
    const dashboard = dashboardState({
      redis: h.redis.redis,
      prefix: h.redis.queues.prefix,
      repo: "acme/gitops",
      target: s.target,
    });
    const snooze = (ref: { apiVersion: string; kind: string; namespace: string; name: string }) =>
      dashboard.snooze({ ref, until: clock + DAY, by: "bob" });
    const rescan = async (count: number) => {
      gh.expectHead();
      await enqueueScan({
        queues: h!.redis.queues,
        job: {
          installationId: gh.installationId,
          repo: "acme/gitops",
          target: s!.target,
          cluster: "test",
          reason: "schedule",
        },
      });
      return (await h!.settled("test", count)).at(-1);
    };

    // 1. Two objects drifted: one message.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"], { now: () => clock });
    await h.settled("test", 1);
    await waitFor("the drift message", () => rx!.requests[0]);

    // 2. The ConfigMap snoozed: the Deployment's drift, announced already, is not announced again.
    await snooze({ apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "app-config" });
    gh.expectIssues({ list: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    expect((await rescan(2))?.returnvalue.actions).toEqual([
      "updated issue #1",
      `updated check run undrift/${s.target}`,
    ]);

    // 3. The Deployment snoozed too: nothing drifts in sight, yet nothing was resolved.
    await snooze({ apiVersion: "apps/v1", kind: "Deployment", namespace: ns, name: "web" });
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    const allSnoozed = (await rescan(3))?.returnvalue;
    expect(allSnoozed?.summary).toBe(`${s.target}: in sync (0 objects)`);
    expect(allSnoozed?.actions).not.toContain("queued resolved notification to ops");

    // 4. A day later both snoozes are over and both still drift: announced once, and not on the next scan.
    clock += DAY + 1;
    gh.expectIssues({ list: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    expect((await rescan(4))?.returnvalue.actions).toContain("queued drift notification to ops");
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    expect((await rescan(5))?.returnvalue.actions).toEqual([]);
    await waitFor("the second drift message", () => rx!.requests[1]);
    expect(rx.requests.map((r) => [r.headers["x-undrift-event"], JSON.parse(r.body).counts.drifted])).toEqual([
      ["drift", 2],
      ["drift", 2],
    ]);
  });

  it("tells its channel once when the scan of a target fails for good", async () => {
    rx = await notifyReceiver();
    s = scenario({
      files: { "manifests/web.yaml": web },
      target: { mode: "warn", cluster: "down" },
      config: { notifications: [{ channel: "ops", events: ["failing"] }] },
    });
    const commit = await commitRepo(s.repoDir);
    const kubeconfig = join(s.repoDir, "..", `${s.target}.kubeconfig`);
    await writeFile(kubeconfig, await closedPortKubeconfig());
    h = await openAppHarness({
      clusters: { down: { kubeconfig, repositories: ["acme/gitops"] } },
      channels: { ops: { kind: "webhook", url: `${rx.base}/ops`, secret: SECRET, repositories: ["acme/*"] } },
    });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    // Three attempts and the report read the head; the first downloads the snapshot; the report writes the check run.
    gh.expectHead(4);
    gh.expectTarball();
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["down"]);
    const [failed] = await h.settled("down", 1);
    expect(failed?.attemptsMade).toBe(3);
    const message = await waitFor("the failing message", () => rx!.requests[0]);
    const body = JSON.parse(message.body);
    expect(body).toMatchObject({ event: "failing", target: s.target, cluster: "down", revision: commit.sha });
    expect(body.summary).toMatch(/^failed: .*unreachable/);
    expect(body.links.check).toMatch(/\/acme\/gitops\/runs\/\d+$/);
    expect(rx.requests).toHaveLength(1);
  });

  it("scans with a last valid config kept from before notifications existed, which has no such field", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const valid = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(valid);
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    // What an older undrift kept: the same config, without `notifications`.
    const key = `${h.redis.prefix}:config:acme/gitops`;
    const kept = JSON.parse((await h.redis.redis.get(key))!);
    delete kept.notifications;
    await h.redis.redis.set(key, JSON.stringify(kept));
    // The head's config is invalid, so the scan falls back on the kept one.
    s.write({ ".github/undrift.yml": `${valid}schedule: often\n` });
    gh.head = await commitRepo(s.repoDir);

    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["test"]);
    const [scan] = await h.settled("test", 1);
    expect(scan?.failedReason).toBeUndefined();
    expect(scan?.returnvalue).toMatchObject({ outcome: "scanned", summary: `${s.target}: 1 drifted` });
  });
});
