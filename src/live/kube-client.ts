// The one place undrift talks HTTP to an API server. Credentials, TLS and exec
// plugins come from @kubernetes/client-node's KubeConfig; the calls themselves
// are plain REST so that paging, dry-run and request counting stay exact.

import type { ClientRequest, IncomingMessage } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { Socket } from "node:net";
import type { KubeConfig } from "@kubernetes/client-node";
import { parseRetryAfter } from "../model/retry-after.ts";
import type { KubeObject } from "../model/types.ts";
import { boundExecPlugins } from "./bounded-exec-auth.ts";
import { connectionError } from "./connection-error.ts";
import {
  type ClientIdentity,
  ClusterIdentityError,
  ClusterNoAnswerError,
  ExecPluginStoppedError,
  KubeApiError,
  KubeconfigError,
  type StatusDetails,
} from "./errors.ts";
import { keptAliveAgent } from "./kept-alive-agent.ts";
import { kubeconfigSource } from "./load-kubeconfig.ts";

// Not `import ... from "node:http"`: an ES import of it reads every export, and its WebSocket getter
// loads Node's bundled undici, about as costly as the rest of http (a third of it for plain-http servers).
const { request: httpRequest } = process.getBuiltinModule("node:http");

function parseStatus(text: string): { reason?: string; message?: string; details?: StatusDetails } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface KubeRequest {
  method: "GET" | "PATCH" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  accept?: string;
  /** Further request headers (If-None-Match for a cached discovery document). */
  headers?: Record<string, string>;
}

/** One line of a WATCH stream; an ERROR's object is a Status (code 410: the resourceVersion is too old). */
export interface WatchEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  object: KubeObject & { code?: number; reason?: string; message?: string };
}

/** What a request asked, as an error names it. */
type Asked = { verb: string; path: string };

const maxAttempts = 5;
// As client-go's transport: a server that accepts the connection but never completes TLS (not an API server) fails fast.
const HANDSHAKE_TIMEOUT_MS = 10_000;
const maxRetryAfterSeconds = 5;

/** Usage: `const client = new KubeClient(kc); await client.json("GET", "/api/v1/namespaces")`. */
export class KubeClient {
  readonly server: string;
  /** Requests sent since the client was made; reported in scan stats. */
  requests = 0;
  private readonly kubeConfig: KubeConfig;
  private readonly timeoutMs: number;
  /** An https server reached directly; through a cluster's proxyUrl, client-node's proxy agent is kept. */
  private readonly keepAlive: boolean;
  /** The names errors give: the kubeconfig's cluster and user, and its file. */
  readonly identity: ClientIdentity;

  constructor(kubeConfig: KubeConfig, options: { timeoutMs?: number } = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("kubeconfig has no current cluster");
    // Before its first request: client-node would wait on a hung exec plugin for ever.
    boundExecPlugins(kubeConfig);
    this.kubeConfig = kubeConfig;
    this.server = cluster.server.replace(/\/+$/, "");
    this.keepAlive = this.server.startsWith("https:") && !cluster.proxyUrl;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const user = kubeConfig.getCurrentUser()?.name ?? "";
    this.identity = { cluster: cluster.name, user, kubeconfig: kubeconfigSource(kubeConfig) };
  }

  /** Sends one request and returns the decoded JSON body; error statuses throw KubeApiError. */
  async send<T = unknown>(req: KubeRequest): Promise<T> {
    return (await this.sendConditional<T>(req)).body as T;
  }

  /**
   * As send, with the response's ETag; a 304 Not Modified (the request's If-None-Match matched) is no error
   * and has no body.
   */
  async sendConditional<T = unknown>(req: KubeRequest): Promise<{ body?: T; etag?: string; notModified: boolean }> {
    const { url, options, payload } = await this.prepare(req, this.timeoutMs);
    const asked = { verb: req.method, path: req.path };
    let { status, text, retryAfter, etag } = await this.counted(url, options, payload, asked);
    // As client-go does: the server asks to come back later (429, or 5xx with Retry-After) while it
    // is busy or, for a CRD created a moment ago, while its storage initializes.
    for (let attempt = 1; attempt < maxAttempts && retryAfter !== undefined; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter!, maxRetryAfterSeconds) * 1000));
      ({ status, text, retryAfter, etag } = await this.counted(url, options, payload, asked));
    }
    if (status >= 400) throw this.statusError(req.method, req.path, status, text);
    if (status === 304) return { notModified: true, ...(etag ? { etag } : {}) };
    return { body: (text ? JSON.parse(text) : undefined) as T, notModified: false, ...(etag ? { etag } : {}) };
  }

  /**
   * Opens a WATCH (`req.query` carries `watch=1` and its resourceVersion): resolves once the server answered
   * 200, with the open stream; an error status throws KubeApiError as send does. Each event line goes to
   * `onEvent`; `ended` resolves when the stream ends: undefined when the server closed it (its timeout),
   * the error when the connection broke or said nothing for `idleMs` (bookmarks come about once a minute).
   */
  async watch(
    req: KubeRequest,
    onEvent: (event: WatchEvent) => void,
    options: { idleMs?: number } = {},
  ): Promise<{ ended: Promise<Error | undefined>; stop(): void }> {
    const prepared = await this.prepare(req, options.idleMs ?? 90_000);
    this.requests++;
    const failed = (error: unknown) => connectionError({ error, server: this.server, ...this.identity });
    const send = prepared.url.protocol === "http:" ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      let finish: (error: Error | undefined) => void = () => undefined;
      const ended = new Promise<Error | undefined>((done) => {
        finish = done;
      });
      let stopped = false;
      const onResponse = (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300) {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          // Named WATCH, as the API server's RBAC names the verb (`cannot watch resource "configmaps"`).
          const text = () => Buffer.concat(chunks).toString("utf8");
          res.on("end", () => reject(this.statusError("WATCH", req.path, status, text())));
          res.on("error", (error) => reject(failed(error)));
          return;
        }
        let pending = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          pending += chunk;
          let newline = pending.indexOf("\n");
          while (newline >= 0) {
            const line = pending.slice(0, newline).trim();
            pending = pending.slice(newline + 1);
            newline = pending.indexOf("\n");
            if (!line) continue;
            try {
              onEvent(JSON.parse(line) as WatchEvent);
            } catch (error) {
              // A line that is no JSON (a proxy's page) ends this watch as a broken one, never the process.
              request.destroy(error instanceof Error ? error : new Error(String(error)));
              return;
            }
          }
        });
        // A response cut short ends with `aborted` and `close` but no `end`: only `end` is the server's own close.
        res.on("end", () => finish(undefined));
        res.on("close", () => finish(stopped ? undefined : failed(new Error("the watch connection closed"))));
        res.on("error", (error) => finish(failed(error)));
        resolve({
          ended,
          stop: () => {
            stopped = true;
            request.destroy();
          },
        });
      };
      let request: ClientRequest;
      try {
        request = send(prepared.url, prepared.options, onResponse);
      } catch (error) {
        return reject(failed(error));
      }
      request.on("timeout", () =>
        request.destroy(new Error(`the watch said nothing for ${prepared.options.timeout! / 1000}s`)),
      );
      request.on("socket", (socket) => this.boundHandshake(request, socket, prepared.url.protocol === "https:"));
      request.on("error", (error) => {
        reject(failed(error));
        finish(stopped ? undefined : failed(error));
      });
      request.end();
    });
  }

  /** The URL and options of `req`: query, headers, and the kubeconfig's credentials and TLS. */
  private async prepare(
    req: KubeRequest,
    timeoutMs: number,
  ): Promise<{ url: URL; options: RequestOptions; payload: string | undefined }> {
    const url = new URL(this.server + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const payload =
      req.body === undefined ? undefined : typeof req.body === "string" ? req.body : JSON.stringify(req.body);
    const options: RequestOptions = {
      method: req.method,
      headers: {
        accept: req.accept ?? "application/json",
        ...req.headers,
        // Node neither chunks nor sizes a DELETE body by itself: without a length the server never reads it.
        ...(payload === undefined
          ? {}
          : { "content-type": req.contentType ?? "application/json", "content-length": Buffer.byteLength(payload) }),
      },
      timeout: timeoutMs,
    };
    await this.kubeConfig.applyToHTTPSOptions(options).catch((error: unknown) => {
      // undrift is stopping: the plugin was stopped, the kubeconfig is fine; the scan goes back to the queue.
      if (error instanceof ExecPluginStoppedError) throw error;
      // A certificate or key file it names that cannot be read, an exec plugin that fails.
      const why = error instanceof Error ? error.message : String(error);
      throw new KubeconfigError(`cluster ${this.identity.cluster}: ${this.identity.kubeconfig}: ${why}`, {
        cause: error,
      });
    });
    if (this.keepAlive) options.agent = keptAliveAgent(options);
    return { url, options, payload };
  }

  /** The typed error of an error status. */
  private statusError(verb: string, path: string, status: number, text: string): KubeApiError {
    // Errors are a Status object, except some from the HTTP layer ("404 page not found" for a kind that just went away).
    const body = parseStatus(text);
    const reason = body?.reason ?? String(status);
    const message = body?.message ?? text.slice(0, 500).trim();
    const params = { status, reason, message, verb, path, details: body?.details };
    // Every request of the scan would be refused the same way: say which credentials, once, for the whole cluster.
    if (status === 401) return new ClusterIdentityError({ ...params, identity: this.identity });
    return new KubeApiError(params);
  }

  private async counted(url: URL, options: RequestOptions, payload: string | undefined, asked: Asked) {
    this.requests++;
    return this.exchange(url, options, payload, asked);
  }

  private exchange(
    url: URL,
    options: RequestOptions,
    body: string | undefined,
    asked: Asked,
  ): Promise<{ status: number; text: string; retryAfter?: number; etag?: string }> {
    const send = url.protocol === "http:" ? httpRequest : httpsRequest;
    const failed = (error: unknown) => connectionError({ error, server: this.server, ...this.identity });
    return new Promise((resolve, reject) => {
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const asked = parseRetryAfter(res.headers["retry-after"]);
          const retryable = status === 429 || (status >= 500 && res.headers["retry-after"] !== undefined);
          // In seconds; a 429 that named no wait (or 0, or one unreadable) is tried again after one.
          const retryAfter = retryable ? (asked ? asked / 1000 : 1) : undefined;
          const etag = res.headers.etag;
          resolve({
            status,
            text: Buffer.concat(chunks).toString("utf8"),
            ...(retryAfter ? { retryAfter } : {}),
            ...(etag ? { etag } : {}),
          });
        });
        res.on("error", (error) => reject(failed(error)));
      };
      let req: ClientRequest;
      try {
        req = send(url, options, onResponse);
      } catch (error) {
        // A client key that does not match its certificate fails here, before any connection.
        return reject(failed(error));
      }
      req.on("timeout", () => {
        const { cluster } = this.identity;
        const silent = new ClusterNoAnswerError({ cluster, server: this.server, timeoutMs: this.timeoutMs, ...asked });
        reject(silent);
        req.destroy(silent);
      });
      req.on("socket", (socket) => this.boundHandshake(req, socket, url.protocol === "https:"));
      req.on("error", (error) => reject(failed(error)));
      req.end(body);
    });
  }

  /** Ends the request when a new connection is not ready (connected, and for https its TLS handshake done) in time. */
  private boundHandshake(req: ClientRequest, socket: Socket, tls: boolean): void {
    if (!socket.connecting) return; // a kept-alive connection, ready already
    const timer = setTimeout(() => {
      const error = Object.assign(
        new Error(`no ${tls ? "TLS handshake" : "connection"} within ${HANDSHAKE_TIMEOUT_MS / 1000}s`),
        {
          code: "ETIMEDOUT",
        },
      );
      req.destroy(error);
    }, HANDSHAKE_TIMEOUT_MS);
    timer.unref();
    socket.once(tls ? "secureConnect" : "connect", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  }
}
