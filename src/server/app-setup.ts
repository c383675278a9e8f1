// The first run of the server: without APP_ID and PRIVATE_KEY, `undrift web`
// and `start` serve this page, which registers the GitHub App from the
// package's app.yml through GitHub's manifest flow, or takes the credentials
// of an app registered already. It replaces Probot's setup app, which reads
// app.yml and package.json from the working folder (so it showed "Welcome to
// your Probot App" with no manifest when started elsewhere), registered the
// webhook at app.yml's placeholder URL, and showed no URL on its import page.
// Here the webhook URL is UNDRIFT_BASE_URL + the webhook path (WEBHOOK_PATH,
// Probot's /api/github/webhooks by default); without UNDRIFT_BASE_URL, the
// address the browser used (X-Forwarded-Proto/-Host behind a proxy), as Probot
// does. WEBHOOK_PROXY_URL (a smee.io channel, Probot's development relay) wins
// over both, as in Probot. The credentials GitHub returns go to `.env` in the
// working folder, where Probot reads them on the next start; no value is logged.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { parse as parseYaml } from "yaml";
import { convertAppManifest } from "../github/convert-app-manifest.ts";

/** Probot's (and @octokit/webhooks') webhook path. */
export const DEFAULT_WEBHOOK_PATH = "/api/github/webhooks";

/** The package's app.yml, wherever the process was started from (src/server/ and dist/server/ are both two levels down). */
const APP_YML = new URL("../../app.yml", import.meta.url);

export interface SetupLog {
  info(message: string): void;
  info(fields: object, message: string): void;
}

export interface SetupOptions {
  /** UNDRIFT_BASE_URL without a trailing slash; absent: the request's own address. */
  baseUrl?: string;
  /** WEBHOOK_PATH. */
  webhookPath: string;
  /** WEBHOOK_PROXY_URL: the whole webhook URL when set. */
  webhookProxyUrl?: string;
  /** GHE_HOST and GHE_PROTOCOL, for GitHub Enterprise Server. */
  gheHost?: string;
  gheProtocol?: string;
  /** GH_ORG: register the app on this organization instead of the user. */
  org?: string;
  /** Where `.env` is written: the working folder. */
  cwd: string;
  log: SetupLog;
}

/** The manifest GitHub registers the app from: app.yml, with the URLs of this server. */
export function appManifest(params: { baseUrl: string; webhookUrl: string }): Record<string, unknown> {
  const app = parseYaml(readFileSync(APP_YML, "utf8")) as Record<string, unknown>;
  const hook = (app.hook_attributes ?? {}) as Record<string, unknown>;
  return {
    ...app,
    hook_attributes: { ...hook, url: params.webhookUrl },
    redirect_url: `${params.baseUrl}/probot/setup`,
  };
}

/** The request handler of setup mode; resolves false for a path it does not serve. */
export function setupRoutes(options: SetupOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const github = options.gheHost ? `${options.gheProtocol ?? "https"}://${options.gheHost}` : "https://github.com";
  const api = options.gheHost ? `${github}/api/v3` : "https://api.github.com";
  const urls = (req: IncomingMessage) => {
    const baseUrl = options.baseUrl ?? requestBaseUrl(req);
    return { baseUrl, webhookUrl: options.webhookProxyUrl ?? `${baseUrl}${options.webhookPath}` };
  };
  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://setup.invalid");
    const page = (status: number, html: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(html);
      return true;
    };
    if (req.method === "GET" && url.pathname === "/") {
      res.writeHead(302, { location: "/probot", "content-type": "text/plain" }).end("Found. Redirecting to /probot");
      return true;
    }
    if (req.method === "GET" && url.pathname === "/probot") {
      const { baseUrl, webhookUrl } = urls(req);
      const manifest = appManifest({ baseUrl, webhookUrl });
      const createUrl = `${github}${options.org ? `/organizations/${encodeURIComponent(options.org)}` : ""}/settings/apps/new`;
      return page(200, setupPage({ manifest, createUrl, webhookUrl }));
    }
    if (req.method === "GET" && url.pathname === "/probot/setup") {
      const code = url.searchParams.get("code");
      if (!code) {
        res.writeHead(400, { "content-type": "text/plain" }).end("code missing or invalid");
        return true;
      }
      // The code is GitHub's one-time answer to the manifest: it converts to the new app's credentials.
      const data = await convertAppManifest({ api, code });
      const file = writeDotEnv(options.cwd, {
        APP_ID: String(data.id),
        PRIVATE_KEY: data.pem,
        WEBHOOK_SECRET: data.webhook_secret ?? "",
        GITHUB_CLIENT_ID: data.client_id,
        GITHUB_CLIENT_SECRET: data.client_secret,
      });
      options.log.info(
        { app: data.slug, file },
        `registered the GitHub App ${data.slug ?? data.id}: its credentials are in ${file}; restart undrift to receive webhooks`,
      );
      res.writeHead(302, { location: `${data.html_url}/installations/new`, "content-type": "text/plain" }).end();
      return true;
    }
    if (req.method === "GET" && url.pathname === "/probot/import") {
      return page(200, importPage({ webhookUrl: urls(req).webhookUrl, appsUrl: `${github}/settings/apps` }));
    }
    if (req.method === "POST" && url.pathname === "/probot/import") {
      const body = JSON.parse(await readBody(req)) as { appId?: unknown; pem?: unknown; webhook_secret?: unknown };
      const { appId, pem, webhook_secret: secret } = body;
      if (
        typeof appId !== "string" ||
        !appId ||
        typeof pem !== "string" ||
        !pem ||
        typeof secret !== "string" ||
        !secret
      ) {
        res.writeHead(400, { "content-type": "text/plain" }).end("appId and/or pem and/or webhook_secret missing");
        return true;
      }
      const file = writeDotEnv(options.cwd, { APP_ID: appId, PRIVATE_KEY: pem, WEBHOOK_SECRET: secret });
      options.log.info({ file }, `the GitHub App's credentials are in ${file}; restart undrift to receive webhooks`);
      res.writeHead(200).end();
      return true;
    }
    if (req.method === "GET" && url.pathname === "/probot/success") {
      return page(200, layout("Set up", "<h2>undrift is set up</h2><p>Restart undrift to receive webhooks.</p>"));
    }
    return false;
  };
}

/** The address the browser used, as Probot's setup reads it: a proxy's X-Forwarded-Proto and -Host first. */
function requestBaseUrl(req: IncomingMessage): string {
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim();
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = first(req.headers["x-forwarded-proto"]) ?? (encrypted ? "https" : "http");
  const host = first(req.headers["x-forwarded-host"]) ?? req.headers.host ?? "localhost";
  return `${protocol}://${host}`;
}

/** Merges `values` into `<cwd>/.env`, readable only by its owner: it holds the private key. Returns its path. */
function writeDotEnv(cwd: string, values: Record<string, string>): string {
  const file = join(cwd, ".env");
  let current: Record<string, string | undefined> = {};
  try {
    current = parseEnv(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const merged = { ...current, ...values };
  const lines = Object.entries(merged).map(([key, value]) => `${key}=${dotEnvValue(value ?? "")}`);
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  // The mode above applies only to a new file; a .env there already may be readable by others.
  chmodSync(file, 0o600);
  Object.assign(process.env, values);
  return file;
}

/** Double-quoted with `\n` for a multi-line value (a PEM), as Node's and Probot's .env parsers read it. */
function dotEnvValue(value: string): string {
  return /[\n\r#"'\s]/.test(value) ? `"${value.replace(/\r?\n/g, "\\n")}"` : value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en" class="height-full">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} undrift</title>
  <link rel="stylesheet" href="/probot/static/primer.css">
</head>
<body class="height-full bg-gray-light">
  <div class="d-flex flex-column flex-justify-center flex-items-center text-center height-full py-6">
    <div class="box-shadow rounded-2 border p-6 bg-white">
${body}
    </div>
  </div>
</body>
</html>
`;
}

function setupPage(params: { manifest: Record<string, unknown>; createUrl: string; webhookUrl: string }): string {
  const { manifest } = params;
  return layout(
    "Set up",
    `<h1>Set up ${escapeHtml(String(manifest.name ?? "undrift"))}</h1>
      <p>${escapeHtml(String(manifest.description ?? ""))}</p>
      <p>GitHub will send webhooks to <b id="webhook-url">${escapeHtml(params.webhookUrl)}</b>
        (set <code>UNDRIFT_BASE_URL</code> to the address GitHub reaches this server at).</p>
      <form action="${escapeHtml(params.createUrl)}" method="post" target="_blank">
        <button class="btn btn-outline" name="manifest" id="manifest" value="${escapeHtml(JSON.stringify(manifest))}">Register GitHub App</button>
        <a href="/probot/import" class="ml-2">or use an existing GitHub App</a>
      </form>`,
  );
}

function importPage(params: { webhookUrl: string; appsUrl: string }): string {
  return layout(
    "Import",
    `<h2>Use an existing GitHub App</h2>
      <h3>Step 1</h3>
      <p>Set your app's Webhook URL to<br><b id="webhook-url">${escapeHtml(params.webhookUrl)}</b></p>
      <a href="${escapeHtml(params.appsUrl)}" target="_blank" rel="noreferrer">in the app's settings on GitHub</a>
      <h3>Step 2</h3>
      <form onsubmit="return onSubmit(event) || false">
        <label for="appId">App ID</label> <input type="text" required id="appId"><br>
        <label for="whs">Webhook secret</label> <input type="password" required id="whs"><br>
        <label for="pem">Private key</label> <input type="file" accept=".pem" required id="pem"><br>
        <button class="btn btn-outline" type="submit">Submit</button>
      </form>
      <script>
        function onSubmit(e) {
          e.preventDefault();
          const appId = document.getElementById("appId").value;
          const webhook_secret = document.getElementById("whs").value;
          document.getElementById("pem").files[0].text()
            .then((pem) => fetch("", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ appId, pem, webhook_secret }) }))
            .then((r) => { if (r.ok) location.replace("/probot/success"); })
            .catch((e) => alert(e));
          return false;
        }
      </script>`,
  );
}
