// The app's processes as an operator starts them, each a separate `undrift`
// process: `start` and `web` without credentials serve the setup page, from
// any folder, registering app.yml with this server's webhook URL, and stop on SIGTERM; `worker` names the variable it
// misses in one line; `audit` prints the trail from Redis.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { freePort } from "../../scripts/cluster/processes.ts";
import { appendAudit } from "../../src/state/audit-log.ts";
import { eventually } from "../helpers/eventually.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { startGitHubRelay } from "../helpers/github-relay.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { undrift } from "../helpers/scenario.ts";

const root = resolve(import.meta.dirname, "../..");
const cli = resolve(root, "bin/undrift.js");
const github = useGitHubMock();

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

/** The environment without GitHub App credentials (and without a smee.io channel, which setup would create). */
function withoutCredentials(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_SMEE_SETUP: "true", ...extra };
  for (const name of ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_PROXY_URL", "NODE_ENV", "UNDRIFT_CLUSTERS"])
    delete env[name];
  return env;
}

/** `eventually` with this file's bounds. */
function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<Exclude<T, false | undefined>> {
  return eventually(what, check, { timeoutMs, intervalMs: 100 });
}

/** Starts `undrift <command>` in `cwd`; returns its output so far. */
function startIn(command: string, cwd: string, env: NodeJS.ProcessEnv): () => string {
  let output = "";
  child = spawn(process.execPath, [cli, command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return () => output;
}

/** The manifest the setup page's button posts to GitHub. */
function manifestOf(html: string): Record<string, unknown> {
  const value = /id="manifest" value="([^"]*)"/.exec(html)?.[1];
  if (value === undefined) throw new Error(`no manifest on the page:\n${html}`);
  const text = value.replace(/&(quot|#39|lt|gt|amp);/g, (_, name: string) =>
    name === "quot" ? '"' : name === "#39" ? "'" : name === "lt" ? "<" : name === "gt" ? ">" : "&",
  );
  return JSON.parse(text) as Record<string, unknown>;
}

const appYml = parseYaml(readFileSync(resolve(root, "app.yml"), "utf8")) as Record<string, unknown>;

describe("undrift start", () => {
  it("serves the setup page without APP_ID and PRIVATE_KEY from any folder, registering app.yml at UNDRIFT_BASE_URL, and stops on SIGTERM", async () => {
    const port = await freePort();
    const cwd = await mkdtemp(join(tmpdir(), "undrift-setup-"));
    const output = startIn(
      "start",
      cwd,
      withoutCredentials({ PORT: String(port), HOST: "127.0.0.1", UNDRIFT_BASE_URL: "https://undrift.example.org/" }),
    );
    const home = await until("the setup page", async () => {
      const response = await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" });
      return response.status === 302 ? response : undefined;
    });
    expect(home.headers.get("location")).toBe("/probot");
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Set up undrift");
    expect(html).toContain("Register GitHub App");
    // The manifest posted to GitHub is app.yml's (its name, events and permissions), with this server's URLs.
    const manifest = manifestOf(html);
    expect(manifest).toMatchObject({
      name: appYml.name,
      default_events: appYml.default_events,
      default_permissions: appYml.default_permissions,
      public: false,
      hook_attributes: { url: "https://undrift.example.org/api/github/webhooks" },
      redirect_url: "https://undrift.example.org/probot/setup",
    });
    const importPage = await (await fetch(`http://127.0.0.1:${port}/probot/import`)).text();
    expect(importPage).toMatch(
      /Set your app's Webhook URL to<br><b id="webhook-url">https:\/\/undrift\.example\.org\/api\/github\/webhooks<\/b>/,
    );
    expect(output()).toContain(
      `register the GitHub App at http://127.0.0.1:${port}/probot; its webhooks will go to https://undrift.example.org/api/github/webhooks`,
    );

    child!.kill("SIGTERM");
    const [code] = (await once(child!, "exit")) as [number | null];
    expect(code, output()).toBe(0);
    await rm(cwd, { recursive: true, force: true });
  });
});

describe("undrift web's setup", () => {
  it("registers the webhook at the address a proxy forwards from, and writes the new app's credentials to .env in its folder", async () => {
    const relay = await startGitHubRelay();
    const port = await freePort();
    const cwd = await mkdtemp(join(tmpdir(), "undrift-setup-"));
    try {
      await writeFile(join(cwd, ".env"), "LOG_LEVEL=info\n");
      const output = startIn(
        "web",
        cwd,
        withoutCredentials({ PORT: String(port), HOST: "127.0.0.1", GHE_HOST: relay.host, GHE_PROTOCOL: "http" }),
      );
      const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "gitops.example.net" };
      const html = await until("the setup page", async () => {
        const response = await fetch(`http://127.0.0.1:${port}/probot`, { headers: forwarded });
        return response.status === 200 ? response.text() : undefined;
      });
      expect(manifestOf(html)).toMatchObject({
        name: "undrift",
        hook_attributes: { url: "https://gitops.example.net/api/github/webhooks" },
        redirect_url: "https://gitops.example.net/probot/setup",
      });
      expect(html).toContain(`action="http://${relay.host}/settings/apps/new"`);

      // GitHub sends the browser back with a one-time code, which converts to the app's credentials.
      const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAnot-a-real-key\n-----END RSA PRIVATE KEY-----\n";
      github.expect({
        method: "POST",
        path: "/app-manifests/c0de42/conversions",
        reply: {
          status: 201,
          body: {
            id: 4242,
            slug: "undrift-acme",
            node_id: "A_kwDO",
            name: "undrift-acme",
            html_url: "https://github.com/apps/undrift-acme",
            client_id: "Iv1.0123456789abcdef",
            client_secret: "client-secret-value",
            webhook_secret: "webhook-secret-value",
            pem,
          },
        },
      });
      const back = await fetch(`http://127.0.0.1:${port}/probot/setup?code=c0de42`, {
        redirect: "manual",
        headers: forwarded,
      });
      expect(back.status).toBe(302);
      expect(back.headers.get("location")).toBe("https://github.com/apps/undrift-acme/installations/new");
      const dotEnv = await readFile(join(cwd, ".env"), "utf8");
      expect(parseEnv(dotEnv)).toEqual({
        LOG_LEVEL: "info",
        APP_ID: "4242",
        PRIVATE_KEY: pem,
        WEBHOOK_SECRET: "webhook-secret-value",
        GITHUB_CLIENT_ID: "Iv1.0123456789abcdef",
        GITHUB_CLIENT_SECRET: "client-secret-value",
      });
      // It holds the private key: for its owner only.
      expect((await stat(join(cwd, ".env"))).mode & 0o777).toBe(0o600);
      await until("the restart line", async () => (output().includes("restart undrift") ? true : undefined));
      expect(output()).not.toMatch(/not-a-real-key|webhook-secret-value|client-secret-value/);
      child!.kill("SIGTERM");
      await once(child!, "exit");
    } finally {
      await relay.close();
      await rm(cwd, { recursive: true, force: true });
    }
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
        writers: ["Deployment/shop/web:/spec/replicas by alice (sre) at 2026-11-30T09:58:00.000Z"],
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
    // Who in the cluster changed the field, as the scan's entry kept it from the records of writes.
    expect(result.stdout).toContain(
      "\n    writer:   Deployment/shop/web:/spec/replicas by alice (sre) at 2026-11-30T09:58:00.000Z\n",
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

  it("reads the trail of a server whose queue prefix is not undrift, named by UNDRIFT_RECORDS_PREFIX", async () => {
    redisServer = await startRedisServer();
    const redis = new Redis(redisServer.url);
    // What recordAudit writes for a server with queue prefix `blue`: the stream `blue:audit`.
    await appendAudit({
      redis,
      key: "blue:audit",
      entry: { event: "scan", repo: "acme/gitops", target: "infra", actor: "undrift", outcome: "1 drifted" },
    });
    redis.disconnect();
    const env = { ...process.env, REDIS_URL: redisServer.url, UNDRIFT_RECORDS_PREFIX: "blue" };
    const json = await undrift(["audit", "-o", "json"], { env });
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ event: "scan", outcome: "1 drifted" })]);
    const plain = await undrift(["audit", "-o", "json"], { env: { ...process.env, REDIS_URL: redisServer.url } });
    expect(plain.stdout).toBe("[]\n");
  });
});
