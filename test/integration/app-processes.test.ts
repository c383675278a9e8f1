// The app's processes as an operator starts them, each a separate `undrift`
// process: `start` without credentials serves Probot's setup page (as any
// Probot app does) and stops on SIGTERM; `worker` names the variable it
// misses in one line; `audit` prints the trail from Redis.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { appendAudit } from "../../src/state/audit-log.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { undrift } from "../helpers/scenario.ts";

const root = resolve(import.meta.dirname, "../..");
const cli = resolve(root, "bin/undrift.js");

let child: ChildProcess | undefined;
let redisServer: RedisServer | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  await redisServer?.stop();
  child = redisServer = undefined;
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The environment without GitHub App credentials (and without a smee.io channel, which setup would create). */
function withoutCredentials(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_SMEE_SETUP: "true", ...extra };
  for (const name of ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_PROXY_URL", "NODE_ENV", "UNDRIFT_CLUSTERS"])
    delete env[name];
  return env;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("undrift start", () => {
  it("serves Probot's setup page without APP_ID and PRIVATE_KEY, and stops on SIGTERM", async () => {
    const port = await freePort();
    let output = "";
    child = spawn(process.execPath, [cli, "start"], {
      cwd: root,
      env: withoutCredentials({ PORT: String(port), HOST: "127.0.0.1" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const home = await until("the setup page", async () => {
      const response = await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" });
      return response.status === 302 ? response : undefined;
    });
    expect(home.headers.get("location")).toBe("/probot");
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Setup undrift | built with Probot");
    expect(html).toContain("Register GitHub App");
    // The manifest Probot posts to GitHub is app.yml's: the events and permissions undrift needs.
    expect(html).toContain("installation_repositories");

    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code, output).toBe(0);
  });
});

describe("undrift worker", () => {
  it("says in one line which variable it misses", async () => {
    const result = await undrift(["worker"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      "UNDRIFT_CLUSTERS: required: the path of the cluster registry (YAML) workers scan with",
    );
  });
});

describe("undrift audit", () => {
  it("prints the audit trail of one repository since a time, from REDIS_URL", async () => {
    redisServer = await startRedisServer();
    const redis = new Redis(redisServer.url);
    await appendAudit({
      redis,
      entry: {
        event: "pr-opened",
        repo: "acme/gitops",
        target: "infra",
        cluster: "prod-eu",
        revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        objects: ["Deployment/shop/web"],
        fields: ["Deployment/shop/web:/spec/replicas"],
        managers: ["kubectl-scale"],
        actor: "undrift",
        outcome: "created #7",
      },
    });
    await appendAudit({ redis, entry: { event: "scan", repo: "acme/other", actor: "undrift", outcome: "in sync" } });
    redis.disconnect();
    const env = { ...process.env, REDIS_URL: redisServer.url };
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const proc = spawn(process.execPath, [cli, "audit", "--repo", "ACME/gitops", "--since", "1h"], { env });
      let stdout = "";
      let stderr = "";
      proc.stdout.on("data", (c: Buffer) => {
        stdout += c.toString();
      });
      proc.stderr.on("data", (c: Buffer) => {
        stderr += c.toString();
      });
      proc.on("exit", (code) => done({ code, stdout, stderr }));
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^\S+Z {2}acme\/gitops {2}infra@prod-eu {2}pr-opened {2}by undrift: created #7 at 4b825dc642cb\n {4}objects: {2}Deployment\/shop\/web\n/,
    );
    expect(result.stdout).not.toContain("acme/other");
  });

  it("prints the records as one JSON array with --output json, and [] when none match", async () => {
    redisServer = await startRedisServer();
    const redis = new Redis(redisServer.url);
    await appendAudit({
      redis,
      entry: { event: "scan", repo: "acme/gitops", target: "infra", actor: "undrift", outcome: "2 drifted" },
    });
    redis.disconnect();
    const env = { ...process.env, REDIS_URL: redisServer.url };
    const json = await undrift(["audit", "--output", "json"], { env });
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: "" });
    const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(records).toEqual([
      expect.objectContaining({ event: "scan", repo: "acme/gitops", target: "infra", outcome: "2 drifted" }),
    ]);
    expect(records[0]!.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    const none = await undrift(["audit", "-o", "json", "--repo", "acme/nobody"], { env });
    expect(none.stdout).toBe("[]\n");
  });
});
