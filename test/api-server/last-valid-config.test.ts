// The last valid config of a repository (src/state/last-valid-config.ts), on
// the real Redis: every scan job keeps its snapshot's config, so a write of the
// config already kept must cost a small read and nothing else (at 1,000 targets
// the config is about 640 kB as JSON, once per job), and a changed config, or
// one kept without a digest by a webhook, must still replace it.
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.ts";
import { redisUrl } from "../../src/config/redis-url.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { lastValidConfig } from "../../src/state/last-valid-config.ts";
import { testPrefix } from "../helpers/redis.ts";
import { monitorRedis } from "../helpers/redis-monitor.ts";

const connections: Redis[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => undefined)));
});

const text = (path: string) => `targets:\n  - name: web\n    cluster: prod\n    path: ${path}\n    namespace: web\n`;

/** The commands Redis ran on the config's keys while `run` ran, from MONITOR on a connection of its own. */
async function commandsDuring(redis: Redis, prefix: string, run: () => Promise<void>): Promise<string[]> {
  const monitor = await monitorRedis();
  const seen: string[] = [];
  const end = `${prefix}:config:end-of-run`;
  const ended = new Promise<void>((done) => {
    monitor.on("monitor", (args) => {
      if (args[1] === end) done();
      else if (args[1]?.startsWith(`${prefix}:config:`)) seen.push(`${args[0]} ${args[1]}`);
    });
  });
  try {
    await run();
    // MONITOR's lines come on their own connection: one more command, seen there, follows the run's.
    await redis.get(end);
    await ended;
  } finally {
    monitor.close();
  }
  return seen;
}

describe("the last valid config", () => {
  it("is written once for a digest, again when the digest changes, and when a webhook keeps one without it", async () => {
    const prefix = testPrefix();
    const redis = createRedisConnection({ role: "producer", url: redisUrl(), name: "kept" });
    connections.push(redis);
    const kept = lastValidConfig({ redis, prefix });
    const web = loadConfig(text("apps/web"), ".github/undrift.yml");
    const shop = loadConfig(text("apps/shop"), ".github/undrift.yml");
    const key = `${prefix}:config:acme/gitops`;

    const first = await commandsDuring(redis, prefix, async () => {
      for (let job = 0; job < 3; job++) await kept.set("acme/gitops", web, "digest-of-web");
    });
    expect(first).toEqual([
      `get ${key}:digest`,
      `set ${key}`,
      `set ${key}:digest`,
      `get ${key}:digest`,
      `get ${key}:digest`,
    ]);
    expect((await kept.get("Acme/GitOps"))?.targets[0]?.path).toBe("apps/web");

    await kept.set("acme/gitops", shop, "digest-of-shop");
    expect((await kept.get("acme/gitops"))?.targets[0]?.path).toBe("apps/shop");
    // A webhook's write names no digest: the config's own hash stands in, so the scan's next write replaces it.
    await kept.set("acme/gitops", web);
    expect((await kept.get("acme/gitops"))?.targets[0]?.path).toBe("apps/web");
    await kept.set("acme/gitops", shop, "digest-of-shop");
    expect((await kept.get("acme/gitops"))?.targets[0]?.path).toBe("apps/shop");
  });

  it("is read and parsed once per digest, shared frozen by every job that falls back to it", async () => {
    const prefix = testPrefix();
    const redis = createRedisConnection({ role: "producer", url: redisUrl(), name: "kept" });
    connections.push(redis);
    const kept = lastValidConfig({ redis, prefix });
    const key = `${prefix}:config:acme/gitops`;
    await kept.set("acme/gitops", loadConfig(text("apps/web"), ".github/undrift.yml"), "digest-of-web");

    const configs: unknown[] = [];
    const reads = await commandsDuring(redis, prefix, async () => {
      for (let job = 0; job < 3; job++) configs.push(await kept.get("acme/gitops"));
    });
    // The first job reads the text (beside its digest, in one transaction); the others only the digest.
    expect(reads).toEqual([
      `get ${key}:digest`,
      `get ${key}:digest`,
      `get ${key}`,
      `get ${key}:digest`,
      `get ${key}:digest`,
    ]);
    expect(configs[1]).toBe(configs[0]);
    expect(configs[2]).toBe(configs[0]);
    expect(Object.isFrozen(configs[0])).toBe(true);

    // A new config kept: the next read has its digest, so reads the new text.
    await kept.set("acme/gitops", loadConfig(text("apps/shop"), ".github/undrift.yml"), "digest-of-shop");
    expect((await kept.get("acme/gitops"))?.targets[0]?.path).toBe("apps/shop");
  });
});
