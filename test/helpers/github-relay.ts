// GitHub for a process the test cannot mock in (nock works only in-process):
// a loopback server that relays each request to `https://api.github.com` from
// the test process, where the OpenAPI-checked nock mock answers it. So a
// child's requests land on the same fake repository and the same request log
// as the test's own. The child reaches it as a GitHub Enterprise Server
// (`GHE_HOST=127.0.0.1:<port>`, `GHE_PROTOCOL=http`): `/api/v3` is stripped.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface GitHubRelay {
  /** host:port, for GHE_HOST. */
  host: string;
  close(): Promise<void>;
}

// Hop-by-hop and framing headers belong to each leg, not to the request relayed.
const ownHeaders = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
  "keep-alive",
]);

export async function startGitHubRelay(target = "https://api.github.com"): Promise<GitHubRelay> {
  const server = createServer(relayTo(target));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request handler that relays each request to `target` from this process, `/api/v3` stripped, as the relay does. */
export function relayTo(target: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    relay(req)
      .then((answer) => {
        res.writeHead(answer.status, answer.headers).end(answer.body);
      })
      .catch((error: Error) => {
        // The caller may be gone (killed mid-request); an answer to nobody is dropped.
        if (!res.destroyed) res.writeHead(502).end(error.message);
      });
  };
  async function relay(req: IncomingMessage) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([name, value]) =>
        ownHeaders.has(name) || value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]],
      ),
    );
    const path = (req.url ?? "/").replace(/^\/api\/v3(?=\/)/, "");
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    // A tarball's redirect to codeload is followed here, where the mock answers it too.
    const response = await fetch(`${target}${path}`, { method: req.method ?? "GET", headers, body: body ?? null });
    const answer: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!ownHeaders.has(name) && name !== "content-encoding") answer[name] = value;
    });
    return { status: response.status, headers: answer, body: Buffer.from(await response.arrayBuffer()) };
  }
}
