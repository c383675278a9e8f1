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

interface StatusRoutesParams {
  env: StatusEnv;
  redis: Redis;
  prefix: string;
  log?: { error(details: object, message: string): void };
}

export function statusRoutes(
  params: StatusRoutesParams,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const routes = new StatusRoutes(params);
  return (req, res) => routes.handle(req, res);
}

type Session = NonNullable<Awaited<ReturnType<ReturnType<typeof statusSessions>["get"]>>>;

/** The status page's routes: sign-in with GitHub when it is configured, a notice how to configure it otherwise. */
class StatusRoutes {
  private readonly params: StatusRoutesParams;
  private readonly env: StatusEnv;
  private readonly sessions: ReturnType<typeof statusSessions>;
  private readonly oauth: ReturnType<typeof statusOAuth> | undefined;
  private readonly jar: ReturnType<typeof cookieJar> | undefined;

  constructor(params: StatusRoutesParams) {
    const { env } = params;
    this.params = params;
    this.env = env;
    this.sessions = statusSessions({ redis: params.redis, prefix: params.prefix });
    this.oauth = env.oauth ? statusOAuth({ ...env.oauth, githubApi: env.githubApi }) : undefined;
    this.jar = env.oauth
      ? cookieJar({ clientSecret: env.oauth.clientSecret, secure: env.baseUrl?.protocol === "https:" })
      : undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path !== "/status" && !path.startsWith("/status/")) return false;
    if (path.startsWith("/status/assets/")) {
      await asset(res, path.slice("/status/assets/".length));
      return true;
    }
    const { oauth, jar } = this;
    if (!oauth || !jar) {
      page(res, 200, offPage(this.baseOf(req)));
      return true;
    }
    try {
      if (path === "/status/login") this.login(req, res, url, oauth, jar);
      else if (path === "/status/callback") await this.callback(req, res, url, oauth, jar);
      else if (path === "/status/logout") await this.logout(req, res, jar);
      else {
        const id = jar.read(req, SESSION_COOKIE);
        const session = id ? await this.sessions.get(id) : undefined;
        if (!session) redirect(res, `/status/login?return=${encodeURIComponent(path)}`);
        else await this.signedIn(res, path, session);
      }
    } catch (error) {
      // One masked line: an OAuth library's error carries its request, client secret included.
      this.params.log?.error({ error: errorSummary(error, 300) }, "status page: a GitHub or Redis call failed");
      page(
        res,
        502,
        renderNotice({
          title: "Status unavailable",
          paragraphs: ["GitHub or Redis did not answer; reload the page in a moment."],
        }),
      );
    }
    return true;
  }

  private baseOf(req: IncomingMessage): string {
    return this.env.baseUrl?.origin ?? `http://${req.headers.host ?? "localhost"}`;
  }

  /** GET /status/login: to GitHub's sign-in, with a fresh `state` kept in a signed cookie. */
  private login(req: IncomingMessage, res: ServerResponse, url: URL, oauth: StatusOAuth, jar: CookieJar): void {
    const state = randomBytes(24).toString("base64url");
    const back = returnPath(url.searchParams.get("return"));
    const cookie = jar.write(STATE_COOKIE, `${state}.${Buffer.from(back).toString("base64url")}`, {
      maxAge: STATE_SECONDS,
      path: "/status",
    });
    redirect(res, oauth.authorizeUrl({ state, redirectUrl: `${this.baseOf(req)}/status/callback` }), [cookie]);
  }

  /** GET /status/callback: `state` checked (CSRF), the code exchanged, a session begun. */
  private async callback(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    oauth: StatusOAuth,
    jar: CookieJar,
  ): Promise<void> {
    const kept = jar.read(req, STATE_COOKIE)?.split(".");
    const clear = jar.write(STATE_COOKIE, "", { maxAge: 0, path: "/status" });
    const given = url.searchParams.get("state") ?? "";
    if (!kept?.[0] || !sameText(kept[0], given)) {
      const paragraphs = ["This sign-in was not started here, or took too long.", signInLink("/status")];
      page(res, 400, renderNotice({ title: "Sign-in failed", paragraphs }), { "set-cookie": clear });
      return;
    }
    const back = returnPath(Buffer.from(kept[1] ?? "", "base64url").toString());
    const code = url.searchParams.get("code");
    if (!code) {
      const paragraphs = ["GitHub did not sign you in.", signInLink(back)];
      page(res, 400, renderNotice({ title: "Sign-in cancelled", paragraphs }), { "set-cookie": clear });
      return;
    }
    const token = await oauth.exchange({ code, redirectUrl: `${this.baseOf(req)}/status/callback` });
    const login = await userAccess({ token: token.token, baseUrl: this.env.githubApi }).login();
    const session = await this.sessions.create({ login, token: token.token }, token.expiresInSeconds);
    redirect(res, back, [clear, jar.write(SESSION_COOKIE, session.id, { maxAge: session.maxAge })]);
  }

  /** POST /status/logout: the session ended (a GET goes back to /status). */
  private async logout(req: IncomingMessage, res: ServerResponse, jar: CookieJar): Promise<void> {
    if (req.method !== "POST") {
      redirect(res, "/status");
      return;
    }
    const id = jar.read(req, SESSION_COOKIE);
    if (id) await this.sessions.delete(id);
    const paragraphs = ["You are signed out of the undrift status page.", signInLink("/status")];
    page(res, 200, renderNotice({ title: "Signed out", paragraphs }), {
      "set-cookie": jar.write(SESSION_COOKIE, "", { maxAge: 0 }),
    });
  }

  /** GET /status and /status/<installation id>, signed in. */
  private async signedIn(res: ServerResponse, path: string, session: Session): Promise<void> {
    const access = userAccess({ token: session.token, baseUrl: this.env.githubApi });
    if (path === "/status") {
      page(res, 200, renderInstallations({ login: session.login, installations: await access.installations() }));
      return;
    }
    const installation = /^\/status\/(\d{1,15})$/.exec(path)?.[1];
    if (!installation) {
      page(res, 404, renderNotice({ title: "No such page", login: session.login, paragraphs: [html404()] }));
      return;
    }
    const result = await installationPage({
      installationId: Number(installation),
      login: session.login,
      access,
      redis: this.params.redis,
      prefix: this.params.prefix,
      githubWeb: this.env.githubWeb,
    });
    page(res, result.status, result.body);
  }
}

type StatusOAuth = ReturnType<typeof statusOAuth>;
type CookieJar = ReturnType<typeof cookieJar>;

function page(res: ServerResponse, status: number, body: string, headers: Record<string, string | string[]> = {}) {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers }).end(body);
}

function redirect(res: ServerResponse, location: string, cookies: string[] = []) {
  res
    .writeHead(303, { location, "cache-control": "no-store", ...(cookies.length ? { "set-cookie": cookies } : {}) })
    .end();
}

/** GET /status/assets/<file>: uPlot, the page's script and stylesheet. */
async function asset(res: ServerResponse, name: string): Promise<void> {
  const found = await statusAsset(name);
  if (!found) res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
  else
    res
      .writeHead(200, {
        "content-type": found.type,
        "cache-control": "public, max-age=3600",
        "x-content-type-options": "nosniff",
      })
      .end(found.body);
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
