// The server's processes as an operator's tools see them: the kubelet's
// /healthz and /readyz probes on `undrift worker`'s own port and on the web
// port of `undrift start`, and what the log says while Redis is down (once, in
// one line naming the URL without its password) and when it is back (once).
// GitHub is the OpenAPI-checked mock, reached through the loopback relay.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Redis } from "ioredis";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/cluster/processes.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { recorderToken } from "../../src/server/attribution/recorder-token.ts";
import { writeRecords } from "../../src/state/write-records.ts";
import { appPrivateKey, unreachableRegistry } from "../helpers/app-process-setup.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { eventually } from "../helpers/eventually.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type GitHubRelay, startGitHubRelay } from "../helpers/github-relay.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { undrift } from "../helpers/run-cli.ts";

const root = resolve(import.meta.dirname, "../..");
const cli = resolve(root, "bin/undrift.js");
const github = useGitHubMock();

let scratch = "";
let privateKey = "";
beforeAll(async () => {
  privateKey = appPrivateKey();
  scratch = await mkdtemp(join(tmpdir(), "undrift-ops-"));
  // The workers never reach this cluster here: the probes and the log are under test, not scans.
  await unreachableRegistry(scratch, "test");
  return () => rm(scratch, { recursive: true, force: true });
});

let child: ChildProcess | undefined;
let relay: GitHubRelay | undefined;
let redisServer: RedisServer | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  await relay?.close();
  await redisServer?.stop();
  child = relay = redisServer = undefined;
});

/** Starts `undrift <command>` as the app (APP_ID, PRIVATE_KEY), with GitHub behind the relay; returns its output so far. */
async function startProcess(command: "worker" | "start", env: Record<string, string>): Promise<() => string> {
  relay ??= await startGitHubRelay();
  let output = "";
  child = spawn(process.execPath, [cli, command], {
    cwd: scratch,
    env: {
      ...process.env,
      APP_ID: "4242",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "undrift-test-secret",
      GHE_HOST: relay.host,
      GHE_PROTOCOL: "http",
      UNDRIFT_CLUSTERS: join(scratch, "clusters.yaml"),
      UNDRIFT_SNAPSHOT_DIR: join(scratch, "snapshots"),
      NO_SMEE_SETUP: "true",
      LOG_FORMAT: "json",
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return () => output;
}

/** `eventually` with this file's bounds. */
function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<Exclude<T, false | undefined>> {
  return eventually(what, check, { timeoutMs, intervalMs: 100 });
}

async function get(port: number, path: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text() };
}

const messages = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string });

describe("undrift worker's probes", () => {
  it("is alive but not ready while Redis is down, saying so once in the log and naming the URL without its password", async () => {
    // The github-app check asks GitHub whatever Redis does: the GitHub throttling does not wait on Redis.
    github.expect({
      method: "GET",
      path: "/app",
      reply: { body: { id: 4242, slug: "undrift-test", name: "undrift" } },
    });
    const redisPort = await freePort();
    const port = await freePort();
    const output = await startProcess("worker", {
      REDIS_URL: `redis://:hunter2@127.0.0.1:${redisPort}`,
      UNDRIFT_WORKER_PORT: String(port),
    });
    const health = await until("/healthz", async () => get(port, "/healthz"));
    expect(health).toEqual({ status: 200, body: "ok\n" });
    // Several probes in a row find it not ready, while ioredis goes on retrying.
    let ready = { status: 0, body: "" };
    for (let probe = 0; probe < 5; probe++) {
      ready = await get(port, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toContain(`[-]redis failed: redis://:***@127.0.0.1:${redisPort}: not connected`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(ready.body).toContain("[+]github-app ok");
    const lines = messages(output()).map((m) => m.msg ?? "");
    expect(lines.filter((m) => m.includes("unreachable"))).toEqual([
      `Redis at redis://:***@127.0.0.1:${redisPort} is unreachable (connect ECONNREFUSED 127.0.0.1:${redisPort}); retrying with backoff`,
    ]);
    // One line says what it serves, from which queue, and where its probes answer.
    expect(lines.filter((m) => m.startsWith("undrift workers started"))).toEqual([
      `undrift workers started for test (queue undrift-scan.test), 2 scans at once per cluster; /healthz, /readyz and /metrics on http://127.0.0.1:${port}`,
    ]);
    expect(lines.filter((m) => /queue worker error|redis error/.test(m))).toEqual([]);
    expect(output()).not.toContain("Unhandled error event");
    expect(output()).not.toContain("hunter2");
    // SIGTERM ends it all the same: waiting for Redis would outlast any grace period.
    child!.kill("SIGTERM");
    const [code] = (await once(child!, "exit")) as [number | null];
    expect(code, output()).toBe(0);
    expect(messages(output()).map((m) => m.msg)).toContain("undrift workers stopped for test");
  });

  it("is ready once Redis answers and GitHub accepted the App's credentials, and logs that it stopped", async () => {
    github.expect({
      method: "GET",
      path: "/app",
      reply: { body: { id: 4242, slug: "undrift-test", name: "undrift" } },
    });
    const port = await freePort();
    const output = await startProcess("worker", { UNDRIFT_WORKER_PORT: String(port) });
    const ready = await until("/readyz to pass", async () => {
      const answer = await get(port, "/readyz");
      return answer.status === 200 ? answer : undefined;
    });
    expect(ready.body).toBe("ok\n");
    const metrics = await get(port, "/metrics");
    // GET /app, as the App, answered 200 by the mock.
    expect(metrics.body).toMatch(/^undrift_github_requests_total\{status="200"\} [1-9]/m);
    expect(metrics.body).toMatch(/^undrift_queue_jobs\{queue="undrift-scan\.test",state="waiting"\} \d+$/m);
    child!.kill("SIGTERM");
    const [code] = (await once(child!, "exit")) as [number | null];
    expect(code, output()).toBe(0);
    expect(messages(output()).map((m) => m.msg)).toContain("undrift workers stopped for test");
  });

  it("says once that Redis went away and once that it is back", async () => {
    // Asked once by the first /readyz, and remembered.
    github.expect({
      method: "GET",
      path: "/app",
      reply: { body: { id: 4242, slug: "undrift-test", name: "undrift" } },
    });
    redisServer = await startRedisServer();
    const port = await freePort();
    const output = await startProcess("worker", { REDIS_URL: redisServer.url, UNDRIFT_WORKER_PORT: String(port) });
    await until("the workers", async () => (output().includes("undrift workers started for test") ? true : undefined));
    await until("Redis to be ready", async () =>
      (await get(port, "/readyz")).body.includes("[-]redis") ? undefined : true,
    );
    const restarted = redisServer.restart({ downMs: 3000 });
    await until("the outage line", async () => (output().includes("is unreachable") ? true : undefined));
    await restarted;
    await until("the recovery line", async () => (output().includes("is reachable again") ? true : undefined));
    const lines = messages(output()).map((m) => m.msg ?? "");
    expect(lines.filter((m) => m.includes("unreachable"))).toHaveLength(1);
    expect(lines.filter((m) => m.includes("reachable again"))).toEqual([
      expect.stringMatching(new RegExp(`^Redis at ${redisServer.url} is reachable again after \\d+s$`)),
    ]);
    expect(lines.filter((m) => /queue worker error|redis error/.test(m))).toEqual([]);
  });
});

describe("undrift start's probes", () => {
  it("answers /healthz and a /readyz that names Redis on the web port while Redis is down, and says the outage once", async () => {
    // The resync at boot lists the installations, and the github-app check asks for the App, whatever Redis does.
    github.expect({ method: "GET", path: "/app/installations", reply: { body: [] } });
    github.expect({
      method: "GET",
      path: "/app",
      reply: { body: { id: 4242, slug: "undrift-test", name: "undrift" } },
    });
    const redisPort = await freePort();
    const port = await freePort();
    const output = await startProcess("start", { REDIS_URL: `redis://127.0.0.1:${redisPort}`, PORT: String(port) });
    expect(await until("/healthz", async () => get(port, "/healthz"))).toEqual({ status: 200, body: "ok\n" });
    for (let probe = 0; probe < 5; probe++) {
      const ready = await get(port, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toContain(`[-]redis failed: redis://127.0.0.1:${redisPort}: not connected`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const lines = messages(output()).map((m) => m.msg ?? "");
    expect(lines.filter((m) => m.includes("is unreachable"))).toHaveLength(1);
    expect(lines.filter((m) => /queue worker error|redis error/.test(m))).toEqual([]);
    expect(output()).not.toContain("Unhandled error event");
    child!.kill("SIGTERM");
    const [code] = (await once(child!, "exit")) as [number | null];
    expect(code, output()).toBe(0);
  });
});

describe("undrift start through a Redis outage", () => {
  it("says once in one line that Redis went away and once that it is back, from every connection of the process", async () => {
    // The resync at boot lists the installations.
    github.expect({ method: "GET", path: "/app/installations", reply: { body: [] } });
    redisServer = await startRedisServer();
    const port = await freePort();
    const output = await startProcess("start", { REDIS_URL: redisServer.url, PORT: String(port) });
    await until("the workers", async () => (output().includes("undrift workers started for test") ? true : undefined));
    const startLine = messages(output()).find((m) => m.msg?.startsWith("undrift workers started"));
    expect(startLine?.msg).toBe(
      `undrift workers started for test (queue undrift-scan.test), 2 scans at once per cluster; /healthz, /readyz and /metrics on http://127.0.0.1:${port}`,
    );
    await until("the resync", async () => (output().includes("schedulers resynced") ? true : undefined));
    const before = messages(output()).length;
    // The process's connections as Redis sees them, by name: every one of them must be back before the log is
    // read, so that a late error of the last to reconnect is in it.
    const connections = async () => {
      const observer = new Redis(redisServer!.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await observer.connect();
        const list = (await observer.client("LIST")) as string;
        return list
          .split("\n")
          .filter((line) => line.includes(" cmd=") && !line.includes(" cmd=client|list"))
          .map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? "(no name)")
          .sort();
      } finally {
        observer.disconnect();
      }
    };
    // Each name as often as it was there before: a connection opened since then does not count.
    const missing = (was: string[], now: string[]) => {
      const left = [...now];
      return was.filter((name) => {
        const at = left.indexOf(name);
        if (at >= 0) left.splice(at, 1);
        return at < 0;
      });
    };
    const connected = await until("the process's connections to Redis", async () => {
      const now = await connections();
      return now.length > 0 ? now : undefined;
    });
    // Long enough for every connection to try again more than once (they back off up to 5 s).
    const restarted = redisServer.restart({ downMs: 8000 });
    await until("the outage line", async () => (output().includes("is unreachable") ? true : undefined));
    await restarted;
    await until("the recovery line", async () => (output().includes("is reachable again") ? true : undefined));
    // Any late error of a client that reconnects after the others is logged before it is back.
    await until(`every connection of the process back (${connected.join(", ")})`, async () =>
      missing(connected, await connections()).length === 0 ? true : undefined,
    );
    const during = messages(output()).slice(before) as Array<{ msg?: string; level?: number }>;
    expect(during.filter((m) => (m.level ?? 0) >= 50).map((m) => m.msg)).toEqual([
      `Redis at ${redisServer.url} is unreachable (connect ECONNREFUSED 127.0.0.1:${redisServer.port}); retrying with backoff`,
    ]);
    expect(during.filter((m) => m.msg?.includes("reachable again"))).toHaveLength(1);
    expect(output()).not.toContain("Unhandled error event");
    child!.kill("SIGTERM");
    const [code] = (await once(child!, "exit")) as [number | null];
    expect(code, output()).toBe(0);
    expect(messages(output()).map((m) => m.msg)).toContain("undrift workers stopped for test");
  });
});

describe("undrift audit", () => {
  it("says in one line that Redis cannot be reached, and exits 2", async () => {
    const redisPort = await freePort();
    const result = await undrift(["audit"], {
      env: { ...process.env, REDIS_URL: `redis://:s3cret@127.0.0.1:${redisPort}` },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `REDIS_URL: Redis at redis://:***@127.0.0.1:${redisPort} is unreachable (connect ECONNREFUSED 127.0.0.1:${redisPort})\n`,
    );
  });
});

describe("undrift start's admission recorder", () => {
  it("serves it over HTTPS when UNDRIFT_RECORDER_PORT is set: allows at once and keeps who wrote, under the queue prefix", async () => {
    // The resync at boot lists the installations: none.
    github.expect({ method: "GET", path: "/app/installations", reply: { body: [] } });
    redisServer = await startRedisServer();
    const [port, recorderPort] = [await freePort(), await freePort()];
    // The test cluster's serving certificate for 127.0.0.1, and its CA, stand in for a real deployment's.
    const pki = join(dirname(kubeconfigPath()), "pki");
    const output = await startProcess("start", {
      REDIS_URL: redisServer.url,
      PORT: String(port),
      UNDRIFT_RECORDER_PORT: String(recorderPort),
      UNDRIFT_RECORDER_HOST: "127.0.0.1",
      UNDRIFT_RECORDER_CERT_FILE: join(pki, "component.crt"),
      UNDRIFT_RECORDER_KEY_FILE: join(pki, "component.key"),
      UNDRIFT_RECORDER_SECRET: "ops-test-recorder-secret-0123456789",
    });
    await until("the recorder's line", async () =>
      output().includes(`admission recorder on https://127.0.0.1:${recorderPort}/attribution/admission/<cluster>`)
        ? true
        : undefined,
    );
    const review = {
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      request: {
        uid: "3f1c",
        kind: { group: "", version: "v1", kind: "ConfigMap" },
        name: "settings",
        namespace: "shop",
        operation: "UPDATE",
        userInfo: { username: "alice", groups: ["sre"] },
        options: { kind: "UpdateOptions", fieldManager: "kubectl-patch" },
        object: { metadata: { name: "settings" }, data: { LOG_LEVEL: "debug" } },
      },
    };
    const answer = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: recorderPort,
          path: `/attribution/admission/prod-eu/${recorderToken("ops-test-recorder-secret-0123456789", "prod-eu")}`,
          method: "POST",
          ca: readFileSync(join(pki, "ca.crt")),
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () => done({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", fail);
      req.end(JSON.stringify(review));
    }).catch((error: Error) => ({ status: 0, body: error.message }));
    // Verified against the CA the webhook's caBundle would carry.
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: "3f1c", allowed: true },
    });
    const redis = createRedisConnection({ role: "producer", url: redisServer.url, name: "ops-test" });
    try {
      const records = writeRecords({ redis, prefix: "undrift" });
      const key = { group: "", kind: "ConfigMap", namespace: "shop", name: "settings" };
      const [record] = await until("the record", async () => {
        const found = await records.forObject("prod-eu", key);
        return found.length > 0 ? found : undefined;
      });
      expect(record).toMatchObject({
        username: "alice",
        groups: ["sre"],
        fieldManager: "kubectl-patch",
        via: "admission",
      });
      expect(JSON.stringify(record)).not.toContain("debug");
      // The resync at boot has asked GitHub (the mock's expectation) before the test ends.
      await until("the resync at boot", async () =>
        output().includes("schedulers resynced with the installations") ? true : undefined,
      );
    } finally {
      redis.disconnect();
    }
  });
});
