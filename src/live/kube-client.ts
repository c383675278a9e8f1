// The one place undrift talks HTTP to an API server. Credentials, TLS and exec
// plugins come from @kubernetes/client-node's KubeConfig; the calls themselves
// are plain REST so that paging, dry-run and request counting stay exact.

import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { ClusterUnreachableError, KubeApiError } from "./errors.ts";

export interface KubeRequest {
  method: "GET" | "PATCH" | "POST" | "PUT" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  accept?: string;
}

/** Usage: `const client = new KubeClient(kc); await client.json("GET", "/api/v1/namespaces")`. */
export class KubeClient {
  readonly server: string;
  /** Requests sent since the client was made; reported in scan stats. */
  requests = 0;
  private readonly kubeConfig: KubeConfig;
  private readonly timeoutMs: number;

  constructor(kubeConfig: KubeConfig, options: { timeoutMs?: number } = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("kubeconfig has no current cluster");
    this.kubeConfig = kubeConfig;
    this.server = cluster.server.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Sends one request and returns the decoded JSON body; error statuses throw KubeApiError. */
  async send<T = unknown>(req: KubeRequest): Promise<T> {
    const url = new URL(this.server + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const options: RequestOptions = {
      method: req.method,
      headers: {
        accept: req.accept ?? "application/json",
        ...(req.body === undefined ? {} : { "content-type": req.contentType ?? "application/json" }),
      },
      timeout: this.timeoutMs,
    };
    await this.kubeConfig.applyToHTTPSOptions(options);
    this.requests++;
    const { status, text } = await this.exchange(url, options, req.body);
    const body = text ? JSON.parse(text) : undefined;
    if (status >= 400) {
      const reason = (body?.reason as string | undefined) ?? String(status);
      const message = (body?.message as string | undefined) ?? text.slice(0, 500);
      throw new KubeApiError({ status, reason, message, verb: req.method, path: req.path });
    }
    return body as T;
  }

  private exchange(url: URL, options: RequestOptions, body: unknown): Promise<{ status: number; text: string }> {
    const send = url.protocol === "http:" ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (error) => reject(new ClusterUnreachableError(this.server, { cause: error })));
      });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${this.timeoutMs / 1000}s`)));
      req.on("error", (error) => reject(new ClusterUnreachableError(this.server, { cause: error })));
      req.end(body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body));
    });
  }
}
