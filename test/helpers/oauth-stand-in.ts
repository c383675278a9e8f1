// A loopback stand-in for GitHub's OAuth web flow, for the status page's
// browser tests: a real listener, since the browser itself follows the
// redirect to it. Served as GitHub does (docs "Generating a user access token
// for a GitHub App"):
//   GET  /login/oauth/authorize     approve: straight back to redirect_uri with a code and the same state;
//                                   show: a sign-in page that stays (a signed-out visitor's landing)
//   POST /login/oauth/access_token  the code for a user token (`ghu_...`, 8 hours), checked against
//                                   the client id, secret and redirect_uri it was issued for; a wrong
//                                   one is a 200 with `error`, as GitHub answers (also as `exchange`)
// The REST calls made with the token are not served here: a server under test
// in the test's process makes them through nock and its OpenAPI checks
// (github-mock.ts) at this stand-in's /api/v3 (GHE_HOST points both here). For
// a server in a child process, where nock cannot reach, `relay` has the
// stand-in pass its /api/v3 requests to the test process's mock, as
// github-relay.ts does, so the child sees one GitHub host for both.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { relayTo } from "./github-relay.ts";

export interface OAuthStandIn {
  /** `127.0.0.1:<port>`, for GHE_HOST (with GHE_PROTOCOL=http). */
  host: string;
  /** The REST root the server derives from GHE_HOST: nock's baseUrl. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** `approve` (default) signs in at once; `show` leaves the browser on the sign-in page. */
  mode: "approve" | "show";
  /** The tokens exchanges issued. */
  tokens: string[];
  /**
   * GitHub's answer to a POST /login/oauth/access_token with this form. A server under test in the
   * test's own process reaches this host through nock (it shares the API's origin), so a test hands
   * the exchange here with `github.expect({ origin, reply: ({ json }) => ({ body: standIn.exchange(json) }) })`.
   */
  exchange(form: Record<string, string | undefined>): object;
  authorizeRequests: URL[];
  close(): Promise<void>;
}

/** With `relay` (`https://api.github.com`, the mock's origin), requests under /api/v3 go there from this process. */
export async function startOAuthStandIn(options: { relay?: string } = {}): Promise<OAuthStandIn> {
  const rest = options.relay ? relayTo(options.relay) : undefined;
  const codes = new Map<string, string>();
  // The code for a token: once, for the client and the redirect_uri it was issued to.
  const exchange = (form: Record<string, string | undefined>): object => {
    const redirect = codes.get(form.code ?? "");
    codes.delete(form.code ?? "");
    const ok =
      form.client_id === standIn.clientId &&
      form.client_secret === standIn.clientSecret &&
      redirect !== undefined &&
      (form.redirect_uri === undefined || form.redirect_uri === redirect);
    if (!ok)
      return {
        error: "bad_verification_code",
        error_description: "The code passed is incorrect or expired.",
        error_uri: "https://docs.github.com/apps/troubleshooting-oauth-app-access-token-request-errors",
      };
    const token = `ghu_${randomBytes(18).toString("hex")}`;
    standIn.tokens.push(token);
    return {
      access_token: token,
      expires_in: 28800,
      refresh_token: `ghr_${randomBytes(38).toString("hex")}`,
      refresh_token_expires_in: 15811200,
      scope: "",
      token_type: "bearer",
    };
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      standIn.authorizeRequests.push(url);
      const redirect = url.searchParams.get("redirect_uri") ?? "";
      if (url.searchParams.get("client_id") !== standIn.clientId || !redirect) {
        res.writeHead(400, { "content-type": "text/plain" }).end("unknown client_id or no redirect_uri\n");
        return;
      }
      if (standIn.mode === "show") {
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(
            "<!doctype html><title>Sign in to GitHub</title><h1>Sign in to GitHub</h1><p>to continue to undrift</p>",
          );
        return;
      }
      const code = randomBytes(10).toString("hex");
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const form = req.headers["content-type"]?.includes("json")
          ? JSON.parse(body || "{}")
          : Object.fromEntries(new URLSearchParams(body));
        res
          .writeHead(200, { "content-type": "application/json; charset=utf-8", date: new Date().toUTCString() })
          .end(JSON.stringify(exchange(form)));
      });
      return;
    }
    // Only the REST API: the browser's own requests here (a favicon) are nobody's mock.
    if (rest && url.pathname.startsWith("/api/v3/")) rest(req, res);
    else res.writeHead(404, { "content-type": "text/plain" }).end("not served by the stand-in\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const host = `127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const standIn: OAuthStandIn = {
    host,
    apiUrl: `http://${host}/api/v3`,
    clientId: "Iv23liStandIn000",
    clientSecret: randomBytes(20).toString("hex"),
    mode: "approve",
    tokens: [],
    authorizeRequests: [],
    exchange,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return standIn;
}
