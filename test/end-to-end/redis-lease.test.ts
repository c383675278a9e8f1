// The lease that lets only one worker of a cluster watch it
// (src/queue/redis-lease.ts), on the real Redis: one of two processes holds it,
// the other takes it over when the holder lets go, and within the lease's ttl
// when the holder goes silent without letting go (its connection gone, as a
// killed process's is).
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { redisUrl } from "../../src/config/redis-url.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { holdRedisLease, type RedisLease } from "../../src/queue/redis-lease.ts";
import { testPrefix, waitFor } from "../helpers/redis.ts";

const connections: Redis[] = [];
const leases: RedisLease[] = [];
afterEach(async () => {
  await Promise.all(leases.splice(0).map((l) => l.release()));
  await Promise.all(connections.splice(0).map((c) => c.quit().catch(() => undefined)));
});

function holder(key: string, ttlMs: number) {
  const redis = createRedisConnection({ role: "producer", url: redisUrl(), name: `${key}-${connections.length}` });
  connections.push(redis);
  const heard: boolean[] = [];
  const lease = holdRedisLease({ redis, key, ttlMs, onChange: (held) => heard.push(held) });
  leases.push(lease);
  return { redis, lease, heard };
}

describe("a worker's watch lease", () => {
  it("is held by one process at a time, and passes to the other when the holder lets go", async () => {
    const key = `${testPrefix()}:watch-lease:test`;
    const a = holder(key, 2_000);
    await waitFor("the first to hold it", () => a.lease.held);
    const b = holder(key, 2_000);
    // Several renewals later, still the first's.
    await waitFor("renewals", () => a.heard.length === 1 && a.lease.held && !b.lease.held);
    await a.lease.release();
    await waitFor("the second to take it", () => b.lease.held);
    expect(a.heard).toEqual([true, false]);
    expect(b.heard).toEqual([true]);
  });

  it("passes to another process when the holder goes silent without letting go", async () => {
    const key = `${testPrefix()}:watch-lease:test`;
    const a = holder(key, 1_500);
    await waitFor("the first to hold it", () => a.lease.held);
    const b = holder(key, 1_500);
    // The holder's connection is gone, as a killed process's: nothing renews the lease, nothing frees it.
    a.redis.disconnect();
    await waitFor("the second to take it over", () => b.lease.held, 10_000);
    await waitFor("the first to know it lost it", () => !a.lease.held, 10_000);
  });
});
