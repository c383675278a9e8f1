import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/cluster/processes.ts";
import { statusSummary } from "../../src/report/status/status-summary.ts";
import { statusHistory } from "../../src/state/status-history.ts";
import { appPrivateKey, unreachableRegistry } from "../helpers/app-process-setup.ts";
import { type CliProcess, startUndrift } from "../helpers/cli-process.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { startOAuthStandIn } from "../helpers/oauth-stand-in.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { sampleReport } from "../unit/report/sample-report.ts";

const github = useGitHubMock();
const standIn = await startOAuthStandIn({ relay: "https://api.github.com" });
const INSTALLATION = 4711;
const SCREENSHOTS = join(process.cwd(), "test-results");
// The sign-in is several redirects through the stand-in and the page: polls wait as long as the test would.
const settle = { timeout: 20_000, interval: 100 };

let browser: Browser;
let redisServer: RedisServer;
let scratch = "";
let privateKey = "";
let child: CliProcess | undefined;
let page: Page | undefined;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  redisServer = await startRedisServer();
  mkdirSync(SCREENSHOTS, { recursive: true });
  privateKey = appPrivateKey();
  scratch = await mkdtemp(join(tmpdir(), "undrift-status-process-"));
  // `undrift start`'s workers never reach this cluster here: the page is under test, not scans.
  await unreachableRegistry(scratch, "prod-eu");
});
afterEach(async (context) => {
  if (page) {
    const name = context.task.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
    await page.screenshot({ path: join(SCREENSHOTS, `status-process-${name}.png`), fullPage: true });
    await page.context().close();
  }
  page = undefined;
  if (child && child.child.exitCode === null && child.child.signalCode === null) {
    child.child.kill("SIGTERM");
    expect(await child.exited, child.stdout() + child.stderr()).toBe(0);
  }
  child = undefined;
  standIn.mode = "approve";
});
afterAll(async () => {
  await browser?.close();
  await redisServer?.stop();
  await standIn.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * Starts `undrift <command>` as the App on a free port, with GitHub at the stand-in, and waits until it
 * has resynced its schedulers (its one GitHub call at boot, answered by the mock); returns its base URL.
 */
async function startServer(command: "web" | "start", env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  github.expect({ method: "GET", path: "/app/installations", reply: { body: [] } });
  child = startUndrift([command], {
    cwd: scratch,
    env: {
      APP_ID: "4242",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "undrift-test-secret",
      GHE_HOST: standIn.host,
      GHE_PROTOCOL: "http",
      REDIS_URL: redisServer.url,
      UNDRIFT_BASE_URL: base,
      UNDRIFT_SNAPSHOT_DIR: join(scratch, "snapshots"),
      NO_SMEE_SETUP: "true",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env,
    },
  });
  await child.until("the schedulers' resync", (out, err) => `${out}${err}`.includes("schedulers resynced"));
  return base;
}

const oauth = () => ({ GITHUB_CLIENT_ID: standIn.clientId, GITHUB_CLIENT_SECRET: standIn.clientSecret });

async function openPage(): Promise<Page> {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  return page;
}

/** What a worker would have kept after a scan of the shop target: drifted, under undrift's own prefix. */
async function seedDriftedShop(): Promise<void> {
  const redis = new Redis(redisServer.url);
  try {
    await statusHistory({ redis, prefix: "undrift" }).recordScan({
      installationId: INSTALLATION,
      status: statusSummary({
        repo: "acme/gitops",
        cluster: "prod-eu",
        report: { ...sampleReport(), target: "shop" },
        scannedAt: new Date(),
      }),
    });
  } finally {
    await redis.quit();
  }
}

describe("undrift web's status page", () => {
  it("sends a signed-out visitor to GitHub's sign-in for this App's client, back to this server", async () => {
    const base = await startServer("web", oauth());
    standIn.mode = "show";
    const p = await openPage();
    await p.goto(`${base}/status/${INSTALLATION}`);
    await expect.poll(() => p.locator("h1").textContent(), settle).toBe("Sign in to GitHub");
    const at = new URL(p.url());
    expect(`${at.origin}${at.pathname}`).toBe(`http://${standIn.host}/login/oauth/authorize`);
    expect(at.searchParams.get("client_id")).toBe(standIn.clientId);
    expect(at.searchParams.get("redirect_uri")).toBe(`${base}/status/callback`);
  });

  it("shows a person who signed in the installation's drifted target", async () => {
    await seedDriftedShop();
    const base = await startServer("web", oauth());
    // Made by the process with the person's token, through the stand-in to the mock.
    github.expect({ method: "GET", path: "/user", reply: { body: { login: "mona", id: 583231, type: "User" } } });
    github.expect({
      method: "GET",
      path: `/user/installations/${INSTALLATION}/repositories`,
      reply: {
        body: {
          total_count: 1,
          repositories: [{ id: 100, full_name: "acme/gitops", owner: { login: "acme" } }],
        },
      },
    });
    const p = await openPage();
    await p.goto(`${base}/status/${INSTALLATION}`);
    await p.waitForURL(`${base}/status/${INSTALLATION}`);
    await expect.poll(() => p.locator("header .login").textContent(), settle).toBe("mona");
    const shop = p.locator('tbody[data-target="acme/gitops shop"]');
    await expect.poll(() => shop.getAttribute("class"), settle).toContain("state-drifted");
    const row = (await shop.textContent())?.replace(/\s+/g, " ") ?? "";
    expect(row).toContain("prod-eu");
    expect(row).toContain("3 drifted, 1 missing, 1 orphaned");
    expect(standIn.tokens).toHaveLength(1);
    expect(await p.content()).not.toContain(standIn.tokens[0]);
  });
});

describe("undrift start's status page", () => {
  it("is off without an OAuth client, and says how to turn it on", async () => {
    const base = await startServer("start", { UNDRIFT_CLUSTERS: join(scratch, "clusters.yaml") });
    const p = await openPage();
    const answer = await p.goto(`${base}/status/${INSTALLATION}`);
    expect(answer?.status()).toBe(200);
    expect(await p.locator("h1").textContent()).toBe("undrift status page is off");
    const text = await p.locator("main").textContent();
    expect(text).toContain("GITHUB_CLIENT_ID");
    expect(text).toContain("GITHUB_CLIENT_SECRET");
    expect(text).toContain(`${base}/status/callback`);
  });
});
