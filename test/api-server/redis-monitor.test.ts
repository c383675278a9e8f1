// The suite's MONITOR client on a Redis kept busy, as other test files keep the shared one.
// ioredis' own monitor() loses the race between MONITOR's +OK and the first monitor lines
// under such a flood (see test/helpers/redis-monitor.ts): a test counting its commands with
// it failed in CI.
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisUrl } from "../../src/config/redis-url.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { testPrefix } from "../helpers/redis.ts";
import { monitorArgs, monitorRedis } from "../helpers/redis-monitor.ts";

const connections: Redis[] = [];
afterAll(() => {
  for (const c of connections) c.disconnect();
});

describe("monitorRedis", () => {
  it("starts every time on a Redis busy with other clients' commands, and sees the test's own", async () => {
    const prefix = testPrefix();
    const flood = createRedisConnection({ role: "producer", url: redisUrl(), name: "flood" });
    const own = createRedisConnection({ role: "producer", url: redisUrl(), name: "own" });
    connections.push(flood, own);
    let flooding = true;
    const flooded = (async () => {
      while (flooding) await Promise.all(Array.from({ length: 200 }, (_, i) => flood.get(`${prefix}:flood:${i}`)));
    })();
    try {
      for (let round = 0; round < 20; round++) {
        const monitor = await monitorRedis();
        const marker = `${prefix}:marker "${round}"\n`;
        const seen = new Promise<string[]>((resolve) => {
          monitor.on("monitor", (args) => {
            if (args[1] === marker) resolve(args);
          });
        });
        await own.set(marker, "a\\b");
        expect(await seen).toEqual(["set", marker, "a\\b"]);
        monitor.close();
      }
    } finally {
      flooding = false;
      await flooded;
    }
  }, 60_000);

  it("reads a MONITOR line's arguments as Redis escaped them", () => {
    expect(
      monitorArgs(String.raw`1796651582.850610 [0 127.0.0.1:43708] "HGETALL" "a \"b\"\\c\n" "\xe2\x9c\x93"`),
    ).toEqual(["hgetall", 'a "b"\\c\n', "\xe2\x9c\x93"]);
  });
});
