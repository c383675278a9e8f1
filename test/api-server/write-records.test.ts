// The records of who wrote a tracked object, in the shared Redis under a prefix
// of this test's own: metadata only, the newest few per object, none past the retention.
import type { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { redisUrl } from "../../src/config/redis-url.ts";
import type { WriteRecord } from "../../src/model/write-record.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { writeRecords } from "../../src/state/write-records.ts";
import { testPrefix } from "../helpers/redis.ts";
import { dumpRedis } from "../helpers/redis-dump.ts";

let redis: Redis;
let prefix: string;

beforeEach(() => {
  redis = createRedisConnection({ role: "producer", url: redisUrl(), name: "write-records-test" });
  prefix = testPrefix();
});

afterEach(async () => {
  const { keys } = await dumpRedis(redis, prefix);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const web = { group: "apps", kind: "Deployment", namespace: "shop", name: "web" };
const record = (at: string, extra: Partial<WriteRecord> = {}): WriteRecord => ({
  cluster: "prod",
  object: web,
  verb: "patch",
  username: "alice",
  groups: ["sre", "system:authenticated"],
  at,
  via: "admission",
  ...extra,
});

describe("write records", () => {
  it("keep who, what, how, where and when, and name a service account as such", async () => {
    const records = writeRecords({ redis, prefix });
    await records.add(record("2026-12-02T10:02:00.000Z", { userAgent: "kubectl/v1.34.1", sourceIP: "10.1.2.3" }));
    await records.add(
      record("2026-12-02T10:03:00.000Z", { username: "system:serviceaccount:ci:deployer", groups: [], verb: "update" }),
    );
    expect(await records.forObject("prod", web)).toEqual([
      record("2026-12-02T10:02:00.000Z", { userAgent: "kubectl/v1.34.1", sourceIP: "10.1.2.3" }),
      {
        ...record("2026-12-02T10:03:00.000Z", { username: "system:serviceaccount:ci:deployer", groups: [] }),
        verb: "update",
        serviceAccount: "ci:deployer",
      },
    ]);
    expect(await records.forObject("staging", web)).toEqual([]);
  });

  it("keep the paths of the fields a write changed, and nothing else handed in as such", async () => {
    const records = writeRecords({ redis, prefix });
    await records.add(record("2026-12-02T10:02:00.000Z", { fields: ["/data/a"], within: ["/spec/containers"] }));
    await records.add(
      record("2026-12-02T10:03:00.000Z", { fields: [{ password: "hunter2" }] as never, within: ["/x"] }),
    );
    expect(await records.forObject("prod", web)).toEqual([
      record("2026-12-02T10:02:00.000Z", { fields: ["/data/a"], within: ["/spec/containers"] }),
      record("2026-12-02T10:03:00.000Z"),
    ]);
    expect((await dumpRedis(redis, prefix)).text).not.toContain("hunter2");
  });

  it("drop a request's body on arrival: a Secret's value handed in is nowhere in Redis", async () => {
    const records = writeRecords({ redis, prefix });
    const value = "canary-c4n4ry-value";
    const secret = { group: "", kind: "Secret", namespace: "shop", name: "db" };
    const withBody = {
      ...record(new Date().toISOString(), { object: { ...secret, data: { password: value } } as never }),
      object2: { data: { password: Buffer.from(value).toString("base64") } },
      requestObject: { stringData: { password: value } },
    } as unknown as WriteRecord;
    await records.add(withBody);
    const { keys, text } = await dumpRedis(redis, prefix);
    expect(keys).toHaveLength(1);
    expect(text).toContain("alice");
    expect(text).not.toContain(value);
    expect(text).not.toContain(Buffer.from(value).toString("base64"));
  });

  it("keep the newest records of an object, and none older than the retention", async () => {
    let clock = Date.parse("2026-12-02T10:00:00.000Z");
    const records = writeRecords({ redis, prefix, perObject: 3, retentionMs: 60_000, now: () => clock });
    for (let i = 0; i < 5; i++) await records.add(record(new Date(clock + i * 1000).toISOString()));
    expect((await records.forObject("prod", web)).map((r) => r.at)).toEqual([
      "2026-12-02T10:00:02.000Z",
      "2026-12-02T10:00:03.000Z",
      "2026-12-02T10:00:04.000Z",
    ]);
    clock += 63_500;
    expect((await records.forObject("prod", web)).map((r) => r.at)).toEqual(["2026-12-02T10:00:04.000Z"]);
    expect(await redis.pttl(`${prefix}:write-records:prod:apps/Deployment/shop/web`)).toBeGreaterThan(0);
  });
});
