// The app's GitHub throttling through an idle period, on a real Redis. With
// REDIS_URL set, Probot (14) clusters the throttling plugin's Bottleneck
// limiters on that Redis; their keys expire after the plugin's `timeout` (two
// minutes by default) without traffic, and on Redis 7 Bottleneck's recovery
// never runs (Redis 7 prefixes "ERR " to the script's error, Bottleneck
// compares the message exactly: SGrondin/bottleneck#205, #219), so every
// request after an idle gap failed with `ERR SETTINGS_KEY_NOT_FOUND`. undrift
// throttles per process instead (src/github/app-octokit.ts): nothing of it is
// kept in Redis, so nothing expires. The expiry here is the plugin's own
// `timeout` option, made short so the gap can be longer than it.
import { Redis } from "ioredis";
import pino from "pino";
import { createProbot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { AppOctokit } from "../../src/github/app-octokit.ts";
import { probotEnv } from "../../src/server/probot-env.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { sha40 } from "../helpers/app-github-replies.ts";
import { appPrivateKey } from "../helpers/app-process-setup.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";

const github = useGitHubMock();
// The throttling's expiry: its limiters' Redis keys live this long after their last use, and its cleanup, every
// half of it, drops a limiter whose keys are gone. The idle gap is longer than the expiry and ends before the next
// cleanup (the keys expire after the one at twice the half, and the next is a half later): a request then finds its
// limiter without keys in Redis, as one does in production for up to a minute after two idle minutes.
const EXPIRY_MS = 4_000;
const GAP_MS = 1.25 * EXPIRY_MS;

let redis: RedisServer | undefined;
const clients: Redis[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await redis?.stop();
  redis = undefined;
});

/** The private Redis's clients, as CLIENT LIST names them, the test's own left out. */
async function redisClients(client: Redis): Promise<string[]> {
  const list = String(await client.call("CLIENT", "LIST"));
  const own = String(await client.call("CLIENT", "ID"));
  return list
    .trim()
    .split("\n")
    .filter((line) => !line.startsWith(`id=${own} `))
    .map((line) => /\bname=(\S*)/.exec(line)?.[1] || "(unnamed)");
}

describe("the app's GitHub throttling with REDIS_URL set", () => {
  it("sends a request made after an idle gap longer than the throttling's expiry, and keeps nothing in Redis", async () => {
    redis = await startRedisServer();
    const client = new Redis(redis.url);
    clients.push(client);
    const gh = fakeRepo({ github, head: { sha: sha40("head"), treeSha: sha40("tree"), archive: Buffer.alloc(0) } });
    // As `undrift worker` built its Probot before: Probot's options from an environment with REDIS_URL in it.
    const probot = createProbot({
      env: { APP_ID: "4242", PRIVATE_KEY: appPrivateKey(), REDIS_URL: redis.url },
      overrides: { Octokit: AppOctokit, log: pino({ level: "silent" }) },
    });
    // The app's Octokit class as Probot made it (get-authenticated-octokit.js makes installations' the same way),
    // with the plugin's expiry short; this is the first Octokit of the test file, whose options the plugin's limiters keep.
    const Octokit = (await probot.auth()).constructor as typeof AppOctokit;
    const octokit = new Octokit({ throttle: { timeout: EXPIRY_MS } });
    gh.expectApp();
    gh.expectApp();
    await octokit.request("GET /app");
    await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    // Whatever the throttling kept in Redis has expired by now.
    expect(await client.keys("*")).toEqual([]);
    const { data } = await octokit.request("GET /app");
    expect(data).toMatchObject({ slug: "undrift-test" });
    expect(github.requests.map((r) => r.operationId)).toEqual(["apps/get-authenticated", "apps/get-authenticated"]);
    expect(await client.keys("*")).toEqual([]);
  });

  it("hands Probot no REDIS_URL from the processes' environment, so no throttling client connects to Redis", async () => {
    redis = await startRedisServer();
    const client = new Redis(redis.url);
    clients.push(client);
    const gh = fakeRepo({ github, head: { sha: sha40("head"), treeSha: sha40("tree"), archive: Buffer.alloc(0) } });
    // As `undrift worker` builds its Probot, and `undrift web` hands the same environment to Probot's run.
    const probot = createProbot({
      env: probotEnv({ APP_ID: "4242", PRIVATE_KEY: appPrivateKey(), REDIS_URL: redis.url }),
      overrides: { Octokit: AppOctokit, log: pino({ level: "silent" }) },
    });
    gh.expectApp();
    await (await probot.auth()).request("GET /app");
    expect(await redisClients(client)).toEqual([]);
  });
});
