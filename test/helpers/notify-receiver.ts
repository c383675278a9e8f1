// A notification channel's stand-in: an HTTP server on loopback that records
// every POST (path, headers, body, when) and answers as a test scripts it per
// path (a status, headers such as Retry-After, or a held answer), 200 by default.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A loopback receiver: records every POST; `answer` picks the status (and headers) per request, 200 by default. */
export async function notifyReceiver() {
  const requests: Received[] = [];
  const scripts = new Map<string, Array<{ status: number; headers?: Record<string, string>; hold?: Promise<void> }>>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const path = req.url ?? "";
      requests.push({ path, headers: req.headers, body, at: Date.now() });
      const next = scripts.get(path)?.shift() ?? { status: 200 };
      await next.hold;
      res.writeHead(next.status, next.headers).end(next.status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    to: (path: string) => requests.filter((r) => r.path === path),
    script(
      path: string,
      ...answers: Array<{ status: number; headers?: Record<string, string>; hold?: Promise<void> }>
    ) {
      scripts.set(path, answers);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The receiver a test holds. */
export type NotifyReceiver = Awaited<ReturnType<typeof notifyReceiver>>;
