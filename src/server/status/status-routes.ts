// The status page's routes on the web process (beside the webhooks, /healthz and /metrics):
//   GET  /status                   the App's installations the signed-in person can reach
//   GET  /status/<installation id> that installation's targets, for the repositories they can read
//   GET  /status/login             to GitHub's sign-in, with a fresh `state` kept in a signed cookie
//   GET  /status/callback          back from GitHub: `state` checked (CSRF), the code exchanged, a session begun
//   POST /status/logout            the session ended
//   GET  /status/assets/<file>     uPlot, the page's script and stylesheet
// Without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET every page says how to turn it on.
// Usage: `addHandler(statusRoutes({ env: parseStatusEnv(), redis, prefix }))`.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Redis } from "ioredis";
import type { StatusEnv } from "../../config/status-env.ts";
import { statusOAuth } from "../../github/status-oauth.ts";
import { userAccess } from "../../github/user-access.ts";
import { sameText } from "../../model/same-text.ts";
import { errorSummary } from "../../report/error-summary.ts";
import { html } from "../../report/status/html.ts";
import { offPage, renderInstallations } from "../../report/status/render-notices.ts";
import { renderNotice } from "../../report/status/status-layout.ts";
import { statusSessions } from "../../state/status-sessions.ts";
import { installationPage } from "./installation-page.ts";
import { cookieJar } from "./signed-cookie.ts";
import { statusAsset } from "./status-assets.ts";

const SESSION_COOKIE = "undrift_session";
const STATE_COOKIE = "undrift_oauth";
/** A sign-in not finished within this long starts again. */
const STATE_SECONDS = 600;

/** Headers of every page: no inline script, nothing from another origin, never framed, never cached. */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export function statusRoutes(params: {
  env: StatusEnv;
  redis: Redis;
  prefix: string;
  log?: { error(details: object, message: string): void };
}) {
  const { env } = params;
  const sessions = statusSessions({ redis: params.redis, prefix: params.prefix });
  const oauth = env.oauth ? statusOAuth({ ...env.oauth, githubApi: env.githubApi }) : undefined;
  const jar = env.oauth
    ? cookieJar({ clientSecret: env.oauth.clientSecret, secure: env.baseUrl?.protocol === "https:" })
    : undefined;

  const page = (res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) =>
    res.writeHead(status, { ...PAGE_HEADERS, ...headers }).end(body);
  const redirect = (res: ServerResponse, location: string, cookies: string[] = []) =>
    res
      .writeHead(303, { location, "cache-control": "no-store", ...(cookies.length ? { "set-cookie": cookies } : {}) })
      .end();
  const baseOf = (req: IncomingMessage) => env.baseUrl?.origin ?? `http://${req.headers.host ?? "localhost"}`;

  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path !== "/status" && !path.startsWith("/status/")) return false;

    if (path.startsWith("/status/assets/")) {
      const asset = await statusAsset(path.slice("/status/assets/".length));
      if (!asset) res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      else
        res
          .writeHead(200, {
            "content-type": asset.type,
            "cache-control": "public, max-age=3600",
            "x-content-type-options": "nosniff",
          })
          .end(asset.body);
      return true;
    }
    if (!oauth || !jar) {
      page(res, 200, offPage(baseOf(req)));
      return true;
    }

    try {
      if (path === "/status/login") {
        const state = randomBytes(24).toString("base64url");
        const back = returnPath(url.searchParams.get("return"));
        const cookie = jar.write(STATE_COOKIE, `${state}.${Buffer.from(back).toString("base64url")}`, {
          maxAge: STATE_SECONDS,
          path: "/status",
        });
        redirect(res, oauth.authorizeUrl({ state, redirectUrl: `${baseOf(req)}/status/callback` }), [cookie]);
        return true;
      }
      if (path === "/status/callback") {
        const kept = jar.read(req, STATE_COOKIE)?.split(".");
        const clear = jar.write(STATE_COOKIE, "", { maxAge: 0, path: "/status" });
        const given = url.searchParams.get("state") ?? "";
        if (!kept?.[0] || !sameText(kept[0], given)) {
          page(
            res,
            400,
            renderNotice({
              title: "Sign-in failed",
              paragraphs: ["This sign-in was not started here, or took too long.", signInLink("/status")],
            }),
            { "set-cookie": clear },
          );
          return true;
        }
        const back = returnPath(Buffer.from(kept[1] ?? "", "base64url").toString());
        const code = url.searchParams.get("code");
        if (!code) {
          page(
            res,
            400,
            renderNotice({ title: "Sign-in cancelled", paragraphs: ["GitHub did not sign you in.", signInLink(back)] }),
            { "set-cookie": clear },
          );
          return true;
        }
        const token = await oauth.exchange({ code, redirectUrl: `${baseOf(req)}/status/callback` });
        const login = await userAccess({ token: token.token, baseUrl: env.githubApi }).login();
        const session = await sessions.create({ login, token: token.token }, token.expiresInSeconds);
        redirect(res, back, [clear, jar.write(SESSION_COOKIE, session.id, { maxAge: session.maxAge })]);
        return true;
      }
      const id = jar.read(req, SESSION_COOKIE);
      if (path === "/status/logout") {
        if (req.method !== "POST") {
          redirect(res, "/status");
          return true;
        }
        if (id) await sessions.delete(id);
        page(
          res,
          200,
          renderNotice({
            title: "Signed out",
            paragraphs: ["You are signed out of the undrift status page.", signInLink("/status")],
          }),
          {
            "set-cookie": jar.write(SESSION_COOKIE, "", { maxAge: 0 }),
          },
        );
        return true;
      }
      const session = id ? await sessions.get(id) : undefined;
      if (!session) {
        redirect(res, `/status/login?return=${encodeURIComponent(path)}`);
        return true;
      }
      const access = userAccess({ token: session.token, baseUrl: env.githubApi });
      if (path === "/status") {
        page(res, 200, renderInstallations({ login: session.login, installations: await access.installations() }));
        return true;
      }
      const installation = /^\/status\/(\d{1,15})$/.exec(path)?.[1];
      if (!installation) {
        page(res, 404, renderNotice({ title: "No such page", login: session.login, paragraphs: [html404()] }));
        return true;
      }
      const result = await installationPage({
        installationId: Number(installation),
        login: session.login,
        access,
        redis: params.redis,
        prefix: params.prefix,
        githubWeb: env.githubWeb,
      });
      page(res, result.status, result.body);
      return true;
    } catch (error) {
      // One masked line: an OAuth library's error carries its request, client secret included.
      params.log?.error({ error: errorSummary(error, 300) }, "status page: a GitHub or Redis call failed");
      page(
        res,
        502,
        renderNotice({
          title: "Status unavailable",
          paragraphs: ["GitHub or Redis did not answer; reload the page in a moment."],
        }),
      );
      return true;
    }
  };
}

/** Where to go after sign-in: a path of the status page only, so no link can send a person elsewhere. */
function returnPath(value: string | null): string {
  return value && /^\/status(\/[\w-]*)*$/.test(value) ? value : "/status";
}

function signInLink(back: string) {
  return html`<a href="${`/status/login?return=${encodeURIComponent(back)}`}">Sign in with GitHub</a>`;
}

function html404() {
  return html`<a href="/status">See your installations</a>`;
}
