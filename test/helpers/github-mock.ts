// GitHub through nock, renovate's http-mock style, with every request checked
// against GitHub's published REST description. Usage, at the top of a test file:
//
//   const github = useGitHubMock();
//   github.expect({ method: "GET", path: "/repos/acme/gitops/pulls", query: { state: "open" }, reply: { body: [] } });
//   await code(github.octokit());
//   expect(github.writes()).toHaveLength(0);
//
// A request that is not declared, matches no operation of the description,
// misses a required parameter or body field, or sends a wrong type fails the
// test in afterEach with a message naming it; so does a declared call that was
// never made. Connections to anything but loopback (the test cluster, Redis)
// are refused.

import nock from "nock";
import { Octokit } from "octokit";
import { afterAll, afterEach } from "vitest";
import { type CheckedRequest, checkRequest } from "./github/check-request.ts";
import type { OpenApiDescription } from "./github/openapi-index.ts";

export interface MockReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ExpectedCall {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE" | "HEAD";
  /** The path, decoded (`/repos/acme/gitops/git/refs/heads/undrift/codify/infra`); octokit's `%2F` matches `/`. */
  path: string;
  /** Query parameters that must be present with these values; others are allowed (the OpenAPI check still vets them). */
  query?: Record<string, string | number | boolean>;
  /** A partial body the request must contain (objects match by subset, arrays item by item), or a predicate. */
  body?: Record<string, unknown> | ((json: unknown) => boolean);
  /** What GitHub answers; a function sees the logged request. */
  reply?: MockReply | ((request: LoggedRequest) => MockReply);
  /** How many times this call is expected (default 1); with `atLeast`, the most it may be. */
  times?: number;
  /**
   * The fewest times it must come (default: `times`), for a count the test cannot know exactly: how many pages of
   * issues a scan reads depends on how many other scans opened theirs before it.
   */
  atLeast?: number;
  /** Another host, such as codeload.github.com for a tarball redirect: not checked against the description. */
  origin?: string;
  /** Awaited once GitHub has acted on the request, before it answers: a test holds the reply while it breaks something. */
  hold?: (request: LoggedRequest) => Promise<void>;
}

export interface LoggedRequest {
  method: string;
  origin: string;
  /** Decoded path. */
  path: string;
  query: Record<string, string>;
  json?: unknown;
  headers: Record<string, string>;
  /** The operation of the REST description it matched (`checks/create`). */
  operationId?: string;
  status: number;
  /** When the mock received it (Date.now()), to measure the waits between retries. */
  at: number;
  /** With the `rateLimit` option: the x-ratelimit-remaining its answer carried. */
  rateLimitRemaining?: number;
}

export interface GitHubMock {
  expect(call: ExpectedCall): void;
  /** Every request sent in this test, in order, declared or not. */
  readonly requests: LoggedRequest[];
  /** Requests that change something on GitHub (all but GET and HEAD). */
  writes(): LoggedRequest[];
  /**
   * What afterEach would fail the test for, returned instead and cleared, with
   * the declared calls: for tests of the mock itself, which expect a refusal.
   */
  verify(): Promise<string[]>;
  /** An Octokit for the code under test: no throttling; retries off unless asked (then with millisecond waits). */
  octokit(options?: { retries?: number }): Octokit;
}

export interface GitHubMockOptions {
  /** The API root the code is given: GitHub Enterprise Server's `https://ghe.example/api/v3` works too. */
  baseUrl?: string;
  /** The REST description requests are checked against, such as `ghes-3.19` for GitHub Enterprise Server 3.19. */
  description?: OpenApiDescription;
  /**
   * The API's answers carry GitHub's rate limit headers (`x-ratelimit-limit`, `-remaining`, `-used`,
   * `-resource: core`), the remaining count going down by one per answer from this limit in each test
   * (one window for every token: enough for a test of one installation). Off by default.
   */
  rateLimit?: number;
}

const apiOrigin = "https://api.github.com";

/** Registers the mock for the current test file (call at the top level or in a describe). */
export function useGitHubMock(options: GitHubMockOptions = {}): GitHubMock {
  const baseUrl = options.baseUrl ?? apiOrigin;
  const base = new URL(baseUrl);
  const described = options.description ? { description: options.description } : {};
  const requests: LoggedRequest[] = [];
  const violations: string[] = [];
  const pending: Array<Promise<void>> = [];
  let declared: Array<{ call: ExpectedCall; used: number; times: number }> = [];
  let used = 0;
  /** GitHub's rate limit headers for the next answer of the API, with the `rateLimit` option. */
  const rateLimitHeaders = (entry: LoggedRequest): Record<string, string> => {
    if (options.rateLimit === undefined) return {};
    used = Math.min(options.rateLimit, used + 1);
    entry.rateLimitRemaining = options.rateLimit - used;
    return {
      "x-ratelimit-limit": String(options.rateLimit),
      "x-ratelimit-remaining": String(entry.rateLimitRemaining),
      "x-ratelimit-used": String(used),
      "x-ratelimit-resource": "core",
    };
  };

  nock.disableNetConnect();
  // The test cluster and Redis listen on loopback.
  const loopback = (host: string) => /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host);
  nock.enableNetConnect(loopback);

  const onNoMatch = (req: Request) => {
    // nock reports every request it lets through; the cluster's are not GitHub's business.
    if (loopback(new URL(req.url).host)) return;
    pending.push(
      (async () => {
        const body = await req
          .clone()
          .text()
          .catch(() => "");
        const url = new URL(req.url);
        const isApi = url.origin === base.origin;
        const checked = isApi
          ? checkRequest({ method: req.method, url: req.url, body, baseUrl, ...described })
          : undefined;
        const entry = logEntry({ req, url, body, checked, status: 501 });
        requests.push(entry);
        const what = checked?.operation ? ` (${checked.operation.operationId})` : "";
        violations.push(
          `unexpected request ${req.method} ${url.origin}${entry.path}${url.search}${what}: declare it with github.expect()` +
            (body ? `\n  body: ${body.slice(0, 500)}` : ""),
        );
        if (checked) violations.push(...checked.problems);
      })(),
    );
  };
  nock.emitter.on("no match", onNoMatch);

  const mock: GitHubMock = {
    requests,
    writes: () => requests.filter((r) => r.method !== "GET" && r.method !== "HEAD"),
    verify: () => verify(),
    octokit: (o = {}) =>
      new Octokit({
        baseUrl,
        retry: o.retries ? { retries: o.retries, retryAfterBaseValue: 1 } : { enabled: false },
        throttle: { enabled: false },
        log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      }),
    expect(call) {
      const record = { call, used: 0, times: call.times ?? 1 };
      declared.push(record);
      const origin = call.origin ?? base.origin;
      const prefix = call.origin ? "" : base.pathname.replace(/\/$/, "");
      const wanted = normalizePath(prefix + call.path);
      nock(origin)
        .intercept((path) => normalizePath(path.split("?")[0] ?? "") === wanted, call.method)
        .query((actual) => queryMatches(actual, call.query))
        .times(record.times)
        .reply(async (req: Request) => {
          record.used++;
          const url = new URL(req.url);
          const body = await req.text();
          const checked = call.origin
            ? undefined
            : checkRequest({ method: req.method, url: req.url, body, baseUrl, ...described });
          const reply = typeof call.reply === "function" ? undefined : call.reply;
          const entry = logEntry({ req, url, body, checked, status: reply?.status ?? 200 });
          const answer = typeof call.reply === "function" ? call.reply(entry) : (call.reply ?? {});
          entry.status = answer.status ?? 200;
          requests.push(entry);
          const problems = [...(checked?.problems ?? []), ...bodyMismatch(call, entry)];
          if (problems.length > 0) {
            violations.push(...problems);
            // GitHub would refuse such a request; the code under test sees that too.
            return [422, { message: `Validation Failed (OpenAPI check): ${problems.join("; ")}` }];
          }
          await call.hold?.(entry);
          const json = answer.body !== undefined && typeof answer.body !== "string" && !Buffer.isBuffer(answer.body);
          const headers = {
            ...(json ? { "content-type": "application/json; charset=utf-8" } : {}),
            ...(call.origin ? {} : rateLimitHeaders(entry)),
            ...answer.headers,
          };
          const payload = json ? JSON.stringify(answer.body) : ((answer.body as string | Buffer | undefined) ?? "");
          return [entry.status, payload, headers];
        });
    },
  };

  async function verify(): Promise<string[]> {
    await Promise.all(pending.splice(0));
    for (const { call, used, times } of declared) {
      if (used < (call.atLeast ?? times)) {
        violations.push(
          `declared but not requested${times > 1 ? ` (${used} of ${times})` : ""}: ${call.method} ${call.path}`,
        );
      }
    }
    declared = [];
    nock.cleanAll();
    return violations.splice(0);
  }

  afterEach(async () => {
    const found = await verify();
    requests.length = 0;
    used = 0;
    if (found.length > 0) throw new Error(`GitHub mock:\n- ${found.join("\n- ")}`);
  });
  afterAll(() => {
    nock.emitter.off("no match", onNoMatch);
    nock.cleanAll();
    nock.enableNetConnect();
  });
  return mock;
}

function logEntry(params: {
  req: Request;
  url: URL;
  body: string;
  checked: CheckedRequest | undefined;
  status: number;
}): LoggedRequest {
  const { req, url, body, checked } = params;
  const entry: LoggedRequest = {
    method: req.method,
    origin: url.origin,
    path: normalizePath(url.pathname),
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(req.headers),
    status: params.status,
    at: Date.now(),
  };
  if (checked?.operation) entry.operationId = checked.operation.operationId;
  if (checked?.json !== undefined) entry.json = checked.json;
  else if (body) entry.json = safeJson(body);
  return entry;
}

function normalizePath(path: string): string {
  return path
    .split("/")
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join("/");
}

function queryMatches(actual: Record<string, unknown>, wanted: ExpectedCall["query"]): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([k, v]) => String(actual[k]) === String(v));
}

function bodyMismatch(call: ExpectedCall, entry: LoggedRequest): string[] {
  if (!call.body) return [];
  const ok = typeof call.body === "function" ? call.body(entry.json) : contains(entry.json, call.body);
  if (ok) return [];
  const shown = typeof call.body === "function" ? "the predicate" : JSON.stringify(call.body);
  return [`${call.method} ${call.path}: body ${JSON.stringify(entry.json)?.slice(0, 800)} does not match ${shown}`];
}

/** Objects match by subset, arrays item by item (same length), everything else by equality. */
function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => contains(actual[i], e))
    );
  }
  if (expected && typeof expected === "object") {
    if (!actual || typeof actual !== "object") return false;
    const a = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => contains(a[k], v));
  }
  return Object.is(actual, expected);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
