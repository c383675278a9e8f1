// Changes the worker's watch of a cluster sees queue scans
// (src/worker/watch-triggers.ts), against the real API server and Redis: a
// kubectl edit of a scanned target's object puts one scan of that target, with
// reason `watch`, in its cluster's queue; a burst of edits is still one scan;
// an object of another target, or one no target tracks, queues nothing.
import { afterEach, describe, expect, it } from "vitest";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { SessionPool } from "../../src/live/session-pool.ts";
import { WatchTriggers } from "../../src/worker/watch-triggers.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";
import { kubectl } from "../helpers/scenario.ts";

let t: TestRedis | undefined;
let pool: SessionPool | undefined;
let triggers: WatchTriggers | undefined;
const namespaces: string[] = [];
afterEach(async () => {
  triggers?.close();
  pool?.close();
  await t?.cleanup(["watched"]);
  await Promise.all(
    namespaces.splice(0).map((ns) => kubectl(["delete", "namespace", ns, "--wait=false"]).catch(() => undefined)),
  );
  t = pool = triggers = undefined;
});

describe("scans queued by the cluster's watch", () => {
  it("queues one scan of the target whose object kubectl edits, for a burst of edits, and none for others", async () => {
    t = await openTestRedis();
    const ns = uniqueName("trig");
    namespaces.push(ns);
    const [mine, other] = [uniqueName("t"), uniqueName("t")];
    await kubectl(["create", "namespace", ns]);
    for (const [name, target] of [
      ["mine", mine],
      ["other", other],
      ["untracked", uniqueName("t")],
    ] as const) {
      await kubectl(["-n", ns, "create", "configmap", name, "--from-literal=LOG_LEVEL=info"]);
      await kubectl(["-n", ns, "label", "configmap", name, `undrift.dev/target=${target}`]);
    }
    triggers = new WatchTriggers({ queues: t.queues, log: t.log, debounceMs: 1_000 });
    const changes = triggers;
    pool = new SessionPool({ watch: true, onChange: (cluster, change) => changes.changed(cluster, change.object) });
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    // What a worker's scans of the two targets leave: the targets tracked, the ConfigMap kind watched.
    for (const target of [mine, other]) {
      const lease = pool.acquire("watched", kubeConfig);
      await lease.session.listTracked(`undrift.dev/target=${target}`, Promise.resolve(new Set(["/ConfigMap"])));
      lease.release();
      triggers.track(
        { installationId: 7, repo: "acme/gitops", target, cluster: "watched" },
        `undrift.dev/target=${target}`,
      );
    }
    const queue = t.queues.scan("watched");
    expect(await queue.count()).toBe(0);

    for (const level of ["debug", "warn", "error"]) {
      await kubectl(["-n", ns, "patch", "configmap", "mine", "-p", JSON.stringify({ data: { LOG_LEVEL: level } })]);
    }
    await kubectl(["-n", ns, "patch", "configmap", "untracked", "-p", JSON.stringify({ data: { LOG_LEVEL: "x" } })]);
    const jobs = await waitFor("a scan queued by the watch", async () => {
      const waiting = await queue.getWaiting();
      return waiting.length > 0 && waiting;
    });
    expect(jobs.map((j) => j.data)).toEqual([
      { installationId: 7, repo: "acme/gitops", target: mine, cluster: "watched", reason: "watch" },
    ]);
    // The burst was one scan: a later edit of the same target folds into the one waiting (enqueueScan's coalescing).
    await kubectl(["-n", ns, "patch", "configmap", "mine", "-p", JSON.stringify({ data: { LOG_LEVEL: "info" } })]);
    await kubectl(["-n", ns, "patch", "configmap", "other", "-p", JSON.stringify({ data: { LOG_LEVEL: "debug" } })]);
    const both = await waitFor("the other target's scan", async () => {
      const waiting = await queue.getWaiting();
      return waiting.length > 1 && waiting;
    });
    expect(both.map((j) => j.data.target).sort()).toEqual([mine, other].sort());
  });
});
