// A cluster's watches passing to another worker (src/worker/watch-clusters.ts,
// src/queue/watch-interest.ts), on the real Redis: two workers of one cluster,
// each with its own connection, as two processes have. The first holds the
// lease and tracks a target it scanned; when it stops, the second takes the
// lease, knows the target although it never scanned it, queues one scan of it
// at once (a change made while nobody watched is reported then, not at the next
// schedule), and from then on a watched change of the target's objects queues
// its scan here.
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/model/types.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { type WatchingClusters, watchClusters } from "../../src/worker/watch-clusters.ts";
import { openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";

const CLUSTER = "watched";
let t: TestRedis | undefined;
const workers: WatchingClusters[] = [];
const connections: Redis[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all(connections.splice(0).map((c) => c.quit().catch(() => undefined)));
  await t?.cleanup([CLUSTER]);
  t = undefined;
});

function worker(test: TestRedis): WatchingClusters {
  const connection = createRedisConnection({
    role: "worker",
    url: test.url,
    name: `${test.prefix}-w${workers.length}`,
  });
  connections.push(connection);
  const watching = watchClusters({
    queues: test.queues,
    connection,
    clusters: [CLUSTER],
    log: test.log,
    leaseTtlMs: 1_500,
    debounceMs: 200,
  });
  workers.push(watching);
  return watching;
}

const configMap = (target: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "settings", namespace: "shop", labels: { "undrift.dev/target": target } },
});

describe("a cluster's watches taken over by another worker", () => {
  it("queues one scan of every target the last holder tracked, and triggers for them from then on", async () => {
    t = await openTestRedis();
    const test = t;
    const queue = test.queues.scan(CLUSTER);
    const first = worker(test);
    await waitFor("the first worker to hold the lease", () => first.watching(CLUSTER));
    const second = worker(test);
    // What the first worker's scan of the target leaves behind.
    const job = { installationId: 7, repo: "acme/gitops", target: "shop", cluster: CLUSTER };
    first.triggers.track(job, "undrift.dev/target=shop");
    await waitFor(
      "the interest kept in Redis",
      async () => (await test.redis.hlen(`${test.prefix}:watch-targets:${CLUSTER}`)) === 1,
    );
    expect(second.watching(CLUSTER)).toBe(false);
    expect(await queue.count()).toBe(0);

    // The first worker stops; the second takes the lease and scans the target it never scanned itself.
    await first.close();
    workers.splice(workers.indexOf(first), 1);
    await waitFor("the second worker to hold the lease", () => second.watching(CLUSTER), 10_000);
    const [adopted] = await waitFor("a scan of the adopted target", async () => {
      const jobs = await queue.getJobs(["waiting", "prioritized", "delayed"]);
      return jobs.length > 0 && jobs;
    });
    expect(adopted?.data).toEqual({ ...job, reason: "watch" });
    expect(await queue.count()).toBe(1);

    // A watched change of the target's object, seen by the second worker, queues its scan.
    await queue.obliterate({ force: true });
    second.triggers.changed(CLUSTER, configMap("shop"));
    second.triggers.changed(CLUSTER, configMap("another"));
    const [triggered] = await waitFor("a scan after the watched change", async () => {
      const jobs = await queue.getJobs(["waiting", "prioritized", "delayed"]);
      return jobs.length > 0 && jobs;
    });
    expect(triggered?.data).toEqual({ ...job, reason: "watch" });
  });

  it("forgets a target dropped from its config: a later holder does not scan it", async () => {
    t = await openTestRedis();
    const test = t;
    const first = worker(test);
    await waitFor("the first worker to hold the lease", () => first.watching(CLUSTER));
    const job = { installationId: 7, repo: "acme/gitops", target: "gone", cluster: CLUSTER };
    // A target still tracked: its adoption is the sign the second worker's adoption has run.
    const kept = { ...job, target: "kept" };
    first.triggers.track(job, "undrift.dev/target=gone");
    first.triggers.track(kept, "undrift.dev/target=kept");
    first.triggers.forget(job);
    await waitFor(
      "the interest in gone dropped, in kept kept",
      async () => (await test.redis.hkeys(`${test.prefix}:watch-targets:${CLUSTER}`)).join() === "acme/gitops#kept",
    );
    await first.close();
    workers.splice(0);
    const second = worker(test);
    await waitFor("the second worker to hold the lease", () => second.watching(CLUSTER), 10_000);
    // Said once every adopted scan is queued: had gone been adopted, its scan would be queued by now too.
    const adopted = await waitFor("the second worker's adoption", () =>
      test.log.entries.find((e) => e.message.endsWith(`of cluster ${CLUSTER} queued for a scan on taking its watches`)),
    );
    expect(adopted.message).toBe(`1 watched targets of cluster ${CLUSTER} queued for a scan on taking its watches`);
    const queued = await test.queues.scan(CLUSTER).getJobs(["waiting", "prioritized", "delayed", "active"]);
    expect(queued.map((j) => j.data)).toEqual([{ ...kept, reason: "watch" }]);
  });

  it("skips an entry it cannot read, with one warning naming it, and adopts the rest", async () => {
    t = await openTestRedis();
    const test = t;
    const key = `${test.prefix}:watch-targets:${CLUSTER}`;
    const job = { installationId: 7, repo: "acme/gitops", target: "shop", cluster: CLUSTER };
    await test.redis.hset(key, "acme/gitops/shop", JSON.stringify({ job, selector: "undrift.dev/target=shop" }));
    await test.redis.hset(key, "acme/gitops/broken", "{not json");
    const only = worker(test);
    await waitFor("the worker to hold the lease", () => only.watching(CLUSTER));
    const jobs = await waitFor("the adopted scan", async () => {
      const found = await test.queues.scan(CLUSTER).getJobs(["waiting", "prioritized", "delayed"]);
      return found.length > 0 && found;
    });
    expect(jobs.map((j) => j.data)).toEqual([{ ...job, reason: "watch" }]);
    const warnings = test.log.entries.filter((e) => e.level === "warn" && e.message.includes("acme/gitops/broken"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("acme/gitops/broken of cluster watched skipped: entry: ");
  });
});
