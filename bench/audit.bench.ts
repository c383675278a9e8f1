// BENCH_ONLY=audit npm run bench: the audit receiver's throughput. The receiver
// (src/server/attribution/audit-receiver.ts) on a loopback port, writing to the
// Redis at REDIS_URL (default 127.0.0.1:6379) under a key prefix of its own,
// takes EventLists of 400 events (a quarter reads, as a policy at Metadata
// for everything would send) from 8 senders for BENCH_AUDIT_SECONDS (default
// 15); prints the events per second kept, the process's peak RSS and the
// Redis bytes per record, then deletes its keys. No cluster is needed.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { auditKinds } from "../src/server/attribution/audit-kinds.ts";
import { auditRoutes } from "../src/server/attribution/audit-receiver.ts";
import { writeRecords } from "../src/state/write-records.ts";

const seconds = Number(process.env.BENCH_AUDIT_SECONDS ?? 15);
const prefix = `bench-audit-${randomBytes(4).toString("hex")}`;
const token = randomBytes(32).toString("hex");
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const quiet = { info() {}, warn() {}, error() {} };
const handler = auditRoutes({
  tokens: new Map([["bench", token]]),
  records: writeRecords({ redis, prefix }),
  kinds: auditKinds({}),
  log: quiet,
});
const server = createServer((req, res) => {
  void handler(req, res);
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const { port } = server.address() as AddressInfo;

const batch = (n: number) =>
  JSON.stringify({
    apiVersion: "audit.k8s.io/v1",
    kind: "EventList",
    items: Array.from({ length: 400 }, (_, i) => {
      const name = `cm-${(n * 400 + i) % 500}`;
      const at = new Date().toISOString();
      return {
        level: "Metadata",
        auditID: randomBytes(8).toString("hex"),
        stage: "ResponseComplete",
        verb: i % 4 === 0 ? "get" : "patch",
        requestURI: `/api/v1/namespaces/shop/configmaps/${name}?fieldManager=kubectl-patch`,
        user: { username: `user-${i % 50}`, groups: ["dev", "system:authenticated"] },
        sourceIPs: ["10.1.2.3"],
        userAgent: "kubectl/v1.34.2 (linux/amd64) kubernetes/abcdef0",
        objectRef: { resource: "configmaps", namespace: "shop", name, apiVersion: "v1" },
        responseStatus: { metadata: {}, code: 200 },
        requestReceivedTimestamp: at,
        stageTimestamp: at,
      };
    }),
  });
const bodies = Array.from({ length: 20 }, (_, n) => batch(n));
const writesPerBatch = 300;
let kept = 0;
let busy = 0;
let sent = 0;
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 100);
const started = performance.now();
const sender = async () => {
  while (performance.now() - started < seconds * 1000) {
    const response = await fetch(`http://127.0.0.1:${port}/attribution/audit/bench`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: bodies[sent++ % bodies.length]!,
    });
    await response.text();
    if (response.status === 200) kept += writesPerBatch;
    else if (response.status === 429) busy++;
    else throw new Error(`audit receiver answered ${response.status}`);
  }
};
try {
  await Promise.all(Array.from({ length: 8 }, sender));
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  let bytes = 0;
  let records = 0;
  let cursor = "0";
  const keys: string[] = [];
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== "0");
  for (const key of keys) {
    bytes += Number(await redis.call("MEMORY", "USAGE", key));
    records += await redis.zcard(key);
  }
  console.log(
    `audit receiver: ${Math.round(kept / elapsed)} writes/s kept (${Math.round((kept * 4) / 3 / elapsed)} events/s taken, ` +
      `reads skipped), ${busy} batches told to retry; peak RSS ${Math.round(peakRss / 2 ** 20)} MiB (receiver and senders); ` +
      `${records} records in ${keys.length} objects, ${Math.round(bytes / records)} Redis bytes per record`,
  );
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
} finally {
  clearInterval(sampler);
  server.close();
  redis.disconnect();
}
