// The status page in a real browser: Playwright driving Debian's Chromium
// (/usr/bin/chromium, installed by .ci/run) against the page's routes served
// in this process, sign-in done against a loopback stand-in for GitHub's OAuth
// endpoints (test/helpers/oauth-stand-in.ts), and the REST calls made with the
// person's token (/user, /user/installations/...) answered by nock, each checked
// against the GitHub Enterprise Server REST description (GHE_HOST points at the
// stand-in, as an operator's would at their server). The records are what the
// worker keeps after a scan (statusSummary of a report, status-history.ts in
// the real Redis under a prefix of this file's own). Every test keeps a
// screenshot under test-results/.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseStatusEnv } from "../../src/config/status-env.ts";
import { statusSummary } from "../../src/report/status/status-summary.ts";
import { statusRoutes } from "../../src/server/status/status-routes.ts";
import { statusHistory } from "../../src/state/status-history.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { startOAuthStandIn } from "../helpers/oauth-stand-in.ts";
import { openTestRedis, type TestRedis } from "../helpers/redis.ts";
import { inSyncReport, sampleReport } from "../unit/report/sample-report.ts";

const standIn = await startOAuthStandIn();
const github = useGitHubMock({ baseUrl: standIn.apiUrl, description: "ghes-3.19" });
const INSTALLATION = 4711;
const DAY = 24 * 3600 * 1000;
const SCREENSHOTS = join(process.cwd(), "test-results");
// The sign-in is several redirects through the stand-in and the page: on a loaded 2-core CI machine that
// outlasts expect.poll's default second, so polls wait until the test's own timeout would.
const settle = { timeout: 20_000, interval: 100 };

let browser: Browser;
let r: TestRedis;
const servers: Server[] = [];
let page: Page | undefined;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  r = await openTestRedis();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterEach(async (context) => {
  if (page) {
    const name = context.task.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase();
    await page.screenshot({ path: join(SCREENSHOTS, `status-page-${name}.png`), fullPage: true });
    await page.context().close();
  }
  page = undefined;
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  standIn.mode = "approve";
});
afterAll(async () => {
  await browser?.close();
  await r?.cleanup();
  await standIn.close();
});

/** The web process's status routes on a loopback port, with the environment an operator would set. */
async function serve(env: Record<string, string>): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const routes = statusRoutes({
    env: parseStatusEnv({ GHE_HOST: standIn.host, GHE_PROTOCOL: "http", UNDRIFT_BASE_URL: base, ...env }),
    redis: r.redis,
    prefix: r.prefix,
  });
  server.on("request", (req, res) => {
    routes(req, res).then((answered) => {
      if (!answered) res.writeHead(404).end("not found\n");
    });
  });
  servers.push(server);
  return base;
}

const signedIn = { GITHUB_CLIENT_ID: standIn.clientId, GITHUB_CLIENT_SECRET: standIn.clientSecret };

async function openPage(): Promise<Page> {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  return page;
}

/** What the worker would have recorded: the shop target drifting for 3 days of the last 14, infra in sync, and a repository of the same installation this person cannot read. */
async function seedHistory(): Promise<void> {
  const now = Date.now();
  const at = (offset: number) => statusHistory({ redis: r.redis, prefix: r.prefix, now: () => now - offset });
  const issue = "https://ghe.example.test/acme/gitops/issues/7";
  const shop = (days: number, report = sampleReport()) =>
    statusSummary({
      repo: "acme/gitops",
      cluster: "prod-eu",
      report: { ...report, target: "shop" },
      scannedAt: new Date(now - days * DAY),
      links: days === 0 ? { issue } : {},
    });
  for (const days of [13, 9, 5])
    await at(days * DAY).recordScan({
      installationId: INSTALLATION,
      status: shop(days, { ...inSyncReport(), target: "shop" }),
    });
  for (const days of [3, 2, 1, 0])
    await at(days * DAY).recordScan({ installationId: INSTALLATION, status: shop(days) });
  for (const days of [12, 6, 0])
    await at(days * DAY).recordScan({
      installationId: INSTALLATION,
      status: statusSummary({
        repo: "acme/gitops",
        cluster: "prod-eu",
        report: inSyncReport(),
        scannedAt: new Date(now - days * DAY),
      }),
    });
  await at(0).recordScan({
    installationId: INSTALLATION,
    status: statusSummary({
      repo: "acme/payments-private",
      cluster: "prod-eu",
      report: { ...sampleReport(), target: "payments" },
      scannedAt: new Date(now),
    }),
  });
}

/** The sign-in's two server-side calls: the code's exchange (answered by the stand-in) and who signed in. */
function expectSignIn(login = "mona"): void {
  github.expect({
    method: "POST",
    origin: `http://${standIn.host}`,
    path: "/login/oauth/access_token",
    // GitHub dates its answers; the token's expiry is counted from that date.
    reply: (request) => ({
      body: standIn.exchange(request.json as Record<string, string>),
      headers: { date: new Date().toUTCString() },
    }),
  });
  github.expect({ method: "GET", path: "/user", reply: { body: { login, id: 583231, type: "User" } } });
}

function expectReadable(repos: string[]): void {
  github.expect({
    method: "GET",
    path: `/user/installations/${INSTALLATION}/repositories`,
    query: { per_page: 100 },
    reply: {
      body: {
        total_count: repos.length,
        repositories: repos.map((full_name, i) => ({
          id: 100 + i,
          full_name,
          owner: { login: full_name.split("/")[0] },
        })),
      },
    },
  });
}

describe("the status page", () => {
  it("shows a signed-in reader the drifted target with its objects and who changed them, the chart, and not a repository they cannot read", async () => {
    await seedHistory();
    const base = await serve(signedIn);
    expectSignIn();
    expectReadable(["acme/gitops"]);
    const p = await openPage();
    await p.goto(`${base}/status/${INSTALLATION}`);
    await p.waitForURL(`${base}/status/${INSTALLATION}`);

    await expect.poll(() => p.locator("header .login").textContent(), settle).toBe("mona");
    const shop = p.locator('tbody[data-target="acme/gitops shop"]');
    await expect.poll(() => shop.getAttribute("class"), settle).toContain("state-drifted");
    // The row as a person reads it: its text, whitespace as the browser collapses it.
    const row = (await shop.textContent())?.replace(/\s+/g, " ") ?? "";
    expect(row).toContain("prod-eu");
    expect(row).toContain("3 drifted, 1 missing, 1 orphaned");
    expect(row).toContain("Deployment shop/web");
    expect(row).toContain("/spec/replicas changed by kubectl-scale at 2026-11-30 09:00 UTC");
    expect(row).toContain("ConfigMap infra/app-config");
    expect(row).toContain("/data/LOG_LEVEL changed by kubectl-patch");
    expect(row).toContain("Secret shop/db");
    expect(await shop.locator("a", { hasText: "tracking issue" }).getAttribute("href")).toBe(
      "https://ghe.example.test/acme/gitops/issues/7",
    );
    expect(await shop.locator("a", { hasText: "check run" }).getAttribute("href")).toBe(
      `http://${standIn.host}/acme/gitops/commit/4b825dc642cb6eb9a060e54bf8d69288fbee4904/checks`,
    );
    const infra = p.locator('tbody[data-target="acme/gitops infra"]');
    expect(await infra.getAttribute("class")).toContain("state-in-sync");

    // The repository this person cannot read is nowhere on the page, nor in the chart's data.
    const html = await p.content();
    expect(html).not.toContain("payments");
    // No value of the report reached the page: not the replicas, the log level, nor the Secret's (masked) data.
    for (const value of ["debug", "*** (before)", "*** (after)", "eu-west-1"]) expect(html).not.toContain(value);

    // The chart: uPlot drew a line per target (its legend names them) on a canvas with pixels.
    const legend = p.locator(".u-legend .u-series .u-label");
    await expect
      .poll(() => legend.allTextContents())
      .toEqual(expect.arrayContaining(["acme/gitops shop", "acme/gitops infra"]));
    type Canvas = {
      width: number;
      height: number;
      getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
    };
    const inked = await p.locator("#chart canvas").evaluate((element) => {
      const canvas = element as unknown as Canvas;
      const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      // The first series' red (#d1242f): pixels only a drawn line can have (the grid and axes are grey).
      for (let i = 0; i < data.length; i += 4)
        if (data[i]! > 180 && data[i + 1]! < 80 && data[i + 2]! < 80 && data[i + 3]! > 0) n++;
      return n;
    });
    expect(inked).toBeGreaterThan(50);

    // The session cookie is HttpOnly and SameSite=Lax (Secure would come with an https base URL).
    const [cookie] = (await p.context().cookies()).filter((c) => c.name === "undrift_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
    expect(standIn.tokens).toHaveLength(1);
    expect(html).not.toContain(standIn.tokens[0]);
  });

  it("sends a signed-out visitor to GitHub's sign-in, for this App's client and back to this server", async () => {
    const base = await serve(signedIn);
    standIn.mode = "show";
    const p = await openPage();
    await p.goto(`${base}/status/${INSTALLATION}`);
    await expect.poll(() => p.locator("h1").textContent(), settle).toBe("Sign in to GitHub");
    const at = new URL(p.url());
    expect(`${at.origin}${at.pathname}`).toBe(`http://${standIn.host}/login/oauth/authorize`);
    expect(at.searchParams.get("client_id")).toBe(standIn.clientId);
    expect(at.searchParams.get("redirect_uri")).toBe(`${base}/status/callback`);
    expect(at.searchParams.get("state")).toMatch(/^[\w-]{32}$/);
  });

  it("refuses a sign-in callback whose state it did not hand out, and exchanges no code", async () => {
    const base = await serve(signedIn);
    const p = await openPage();
    const issued = standIn.tokens.length;
    const answer = await p.goto(`${base}/status/callback?code=stolen&state=forged`);
    expect(answer?.status()).toBe(400);
    expect(await p.locator("main").textContent()).toContain("This sign-in was not started here");
    expect(standIn.tokens).toHaveLength(issued);
  });

  it("tells a reader of none of the installation's repositories that there is nothing for them", async () => {
    const base = await serve(signedIn);
    expectSignIn("octocat");
    github.expect({
      method: "GET",
      path: `/user/installations/${INSTALLATION}/repositories`,
      reply: { status: 404, body: { message: "Not Found" } },
    });
    const p = await openPage();
    await p.goto(`${base}/status/${INSTALLATION}`);
    await expect.poll(() => p.locator("h1").textContent(), settle).toBe("No such installation");
    expect(await p.content()).not.toContain("acme/gitops");
  });

  it("is off without an OAuth client, and says how to turn it on", async () => {
    const base = await serve({});
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
