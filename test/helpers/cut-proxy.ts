// A loopback TCP proxy in front of the API server that a test can cut and
// restore, as a network between undrift and a cluster fails: `cut()` drops
// every open connection and refuses new ones (the port is closed), `restore()`
// listens on the same port again. TLS passes through untouched. Each new
// connection is held `connectDelayMs` before it is joined to the server, so
// a run of requests is slow enough to cut between them; the bytes themselves
// are not delayed.
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { parse } from "yaml";
import { writeKubeconfigFor } from "../../scripts/cluster/kubeconfig.ts";
import { kubeconfigPath } from "./cluster.ts";
import { kubectl } from "./scenario.ts";

export interface CutProxy {
  /** https://127.0.0.1:<port>, to put in a kubeconfig's server. */
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCutProxy(options: { target: string; connectDelayMs: number }): Promise<CutProxy> {
  const target = new URL(options.target);
  const sockets = new Set<Socket>();
  let connections = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const serve = (client: Socket) => {
    connections++;
    track(client);
    client.pause();
    const timer = setTimeout(() => {
      const upstream = createConnection({ host: target.hostname, port: Number(target.port || 443) });
      track(upstream);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.on("error", () => b.destroy());
        a.on("close", () => b.destroy());
        a.pipe(b);
      }
      client.resume();
    }, options.connectDelayMs);
    client.on("close", () => clearTimeout(timer));
  };
  const listen = async (port: number): Promise<Server> => {
    const server = createServer(serve);
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    return server;
  };
  let server: Server | undefined = await listen(0);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const cut = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    url: `https://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    cut,
    async restore() {
      server ??= await listen(port);
    },
    close: cut,
  };
}

/** A cut proxy in front of the test cluster's API server, and `kubeconfig` written to reach the cluster through it. */
export async function proxyTestCluster(kubeconfig: string, connectDelayMs = 0): Promise<CutProxy> {
  const view = parse(await kubectl(["config", "view", "--minify", "-o", "yaml"])) as {
    clusters: Array<{ cluster: { server: string } }>;
  };
  const proxy = await startCutProxy({ target: view.clusters[0]!.cluster.server, connectDelayMs });
  writeKubeconfigFor(kubeconfigPath(), kubeconfig, proxy.url);
  return proxy;
}
