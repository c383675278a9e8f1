// A loopback TCP proxy in front of the API server that adds a round-trip time, as
// a cluster in another region would: every chunk is held rtt/2 in each direction,
// in order. TLS passes through untouched (the server certificate is valid for
// 127.0.0.1), so a kubeconfig only needs its server changed:
//   const proxy = await startLatencyProxy({ target: "https://127.0.0.1:6443", rttMs: 20 });
//   writeKubeconfigFor(kubeconfig, slowKubeconfig, proxy.url); ... await proxy.close();
import { once } from "node:events";
import { createConnection, createServer, type Socket } from "node:net";

export interface LatencyProxy {
  /** https://127.0.0.1:<port>, to put in a kubeconfig's server. */
  url: string;
  port: number;
  /** Connections accepted so far: a client that reuses its connections opens few. */
  readonly connections: number;
  close(): Promise<void>;
}

/** "20ms", "0.5s" or a bare number of milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: ${text} (write e.g. 20ms or 0.5s)`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

/**
 * Forwards `from` to `to`, each chunk (and the end) `delayMs` after it arrived, never reordered. A side that
 * goes away delivers everything it sent first, and then its end: the other side is ended, never destroyed, so
 * bytes still in its write buffer (the last of a response) reach their reader.
 */
function delayedPipe(from: Socket, to: Socket, delayMs: number): void {
  const queue: Array<{ at: number; chunk: Buffer | null }> = [];
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const drain = () => {
    timer = undefined;
    const now = Date.now();
    for (let next = queue[0]; next && next.at <= now; next = queue[0]) {
      queue.shift();
      const { chunk } = next;
      if (chunk === null) to.end();
      else if (!to.write(chunk)) {
        from.pause();
        to.once("drain", () => from.resume());
      }
    }
    // A timer may fire a millisecond before Date.now() says it is due: come back rather than drop it.
    if (queue[0]) timer = setTimeout(drain, Math.max(1, queue[0].at - Date.now()));
  };
  const enqueue = (chunk: Buffer | null) => {
    queue.push({ at: Date.now() + delayMs, chunk });
    if (!timer) timer = setTimeout(drain, delayMs);
  };
  const end = () => {
    if (ended) return;
    ended = true;
    enqueue(null);
  };
  from.on("data", (chunk: Buffer) => enqueue(chunk));
  from.on("end", end);
  from.on("close", end);
}

/** Starts the proxy on 127.0.0.1 (`port` 0 picks a free one) towards `target` (an https:// or host:port address). */
export async function startLatencyProxy(options: {
  target: string;
  rttMs: number;
  port?: number;
}): Promise<LatencyProxy> {
  const target = new URL(options.target.includes("://") ? options.target : `https://${options.target}`);
  const half = options.rttMs / 2;
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    connections++;
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 443) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    delayedPipe(client, upstream, half);
    delayedPipe(upstream, client, half);
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
