// The audit trail in a Redis stream: what is written, what `undrift audit
// --repo --since` reads back, and what is refused.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatAudit } from "../../src/cli/format-audit.ts";
import { AuditEntryError, type AuditEntryInput, appendAudit, readAudit } from "../../src/state/audit-log.ts";
import { eventually } from "../helpers/eventually.ts";
import { openTestRedis, type TestRedis } from "../helpers/redis.ts";

const entry: AuditEntryInput = {
  event: "pr-opened",
  repo: "acme/gitops",
  target: "infra",
  cluster: "prod-eu",
  revision: "0123456789abcdef0123456789abcdef01234567",
  objects: ["Deployment/shop/web"],
  fields: ["Deployment/shop/web:/spec/replicas"],
  managers: ["kubectl-edit"],
  writers: ["Deployment/shop/web:/spec/replicas by alice (sre) at 2026-11-30T09:58:00.000Z from 10.1.2.3"],
  actor: "undrift",
  outcome: "opened #12",
  url: "https://github.com/acme/gitops/pull/12",
};

let t: TestRedis;
let key: string;
beforeEach(async () => {
  t = await openTestRedis();
  key = `${t.prefix}:audit`;
});
afterEach(async () => {
  await t.cleanup();
});

describe("the audit log", () => {
  it("keeps each entry with the time Redis recorded it, and logs it as one structured line", async () => {
    const before = Date.now();
    const { id, time } = await appendAudit({ redis: t.redis, key, entry, log: t.log });
    expect(Date.parse(time)).toBeGreaterThanOrEqual(before - 1000);
    const records = await readAudit({ redis: t.redis, key });
    expect(records).toEqual([{ id, time, ...entry }]);
    expect(t.log.entries).toEqual([
      { level: "info", message: "audit: pr-opened acme/gitops opened #12", fields: { audit: { ...entry, time } } },
    ]);
    expect(await t.redis.xlen(key)).toBe(1);
  });

  it("reads one repository's entries, whatever case it is named in", async () => {
    await appendAudit({ redis: t.redis, key, entry });
    await appendAudit({
      redis: t.redis,
      key,
      entry: { ...entry, repo: "acme/other", event: "scan", outcome: "in-sync" },
    });
    await appendAudit({ redis: t.redis, key, entry: { ...entry, repo: "Acme/GitOps", event: "pr-updated" } });
    const records = await readAudit({ redis: t.redis, key, repo: "ACME/gitops" });
    expect(records.map((record) => record.event)).toEqual(["pr-opened", "pr-updated"]);
  });

  it("reads the entries since a time, oldest first", async () => {
    const first = await appendAudit({ redis: t.redis, key, entry: { ...entry, event: "scan", outcome: "1 drifted" } });
    // Entries are stamped by Redis's clock to the millisecond: `since` is a millisecond of that clock after the
    // first entry's, so the first is before it and every entry appended from now on at or after it.
    const since = await eventually(
      "Redis's clock past the first entry's millisecond",
      async () => {
        const [seconds, micros] = await t.redis.time();
        const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
        return now > Date.parse(first.time) && new Date(now);
      },
      { intervalMs: 1 },
    );
    await appendAudit({ redis: t.redis, key, entry: { ...entry, event: "heal", outcome: "applied 1" } });
    await appendAudit({ redis: t.redis, key, entry: { ...entry, event: "scan", outcome: "in-sync" } });
    const records = await readAudit({ redis: t.redis, key, since });
    expect(records.map((record) => `${record.event}: ${record.outcome}`)).toEqual(["heal: applied 1", "scan: in-sync"]);
    expect(formatAudit(records)).toContain("infra@prod-eu  heal  by undrift: applied 1");
  });

  it("reads the latest entries when there are more than the limit", async () => {
    for (let i = 0; i < 1200; i++) {
      await appendAudit({ redis: t.redis, key, entry: { ...entry, event: "scan", outcome: `scan ${i}` } });
    }
    const records = await readAudit({ redis: t.redis, key });
    expect(records).toHaveLength(1000);
    expect(records[0]?.outcome).toBe("scan 200");
    expect(records.at(-1)?.outcome).toBe("scan 1199");
    const few = await readAudit({ redis: t.redis, key, limit: 3 });
    expect(few.map((record) => record.outcome)).toEqual(["scan 1197", "scan 1198", "scan 1199"]);
  });

  it("keeps about the last maxEntries entries, not all of them", async () => {
    for (let i = 0; i < 300; i++) {
      await appendAudit({ redis: t.redis, key, entry: { ...entry, outcome: `opened #${i}` }, maxEntries: 50 });
    }
    const length = await t.redis.xlen(key);
    expect(length).toBeGreaterThanOrEqual(50);
    expect(length).toBeLessThan(300);
  });

  it("refuses an entry with a field it does not list, so no value can be written, and a multi-line outcome", async () => {
    const withValue = { ...entry, desired: "info", live: "s3cr3t" } as AuditEntryInput;
    const refused: unknown = await appendAudit({ redis: t.redis, key, entry: withValue }).catch((error) => error);
    expect(refused).toBeInstanceOf(AuditEntryError);
    expect((refused as Error).message).toContain("desired");
    expect((refused as Error).message).not.toContain("s3cr3t");
    await expect(
      appendAudit({ redis: t.redis, key, entry: { ...entry, outcome: "line one\nline two" } }),
    ).rejects.toThrow("audit entry: outcome: expected one line");
    expect(await t.redis.exists(key)).toBe(0);
  });

  it("refuses to read a stream entry that is not an audit entry, naming it", async () => {
    const id = await t.redis.xadd(key, "*", "hello", "world");
    await expect(readAudit({ redis: t.redis, key })).rejects.toThrow(`${key} ${id}: not an audit entry`);
  });
});
