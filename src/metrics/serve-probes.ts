// The small HTTP server of a worker that runs without the web side
// (`undrift worker`): /healthz, /readyz and /metrics on UNDRIFT_WORKER_PORT, 404 elsewhere.
import { createServer } from "node:http";
import { probeRoutes, type ReadinessCheck } from "./probe-routes.ts";

export interface ProbeServer {
  /** The port it listens on (the one asked for, or the one the system gave for 0). */
  port: number;
  close(): Promise<void>;
}

export async function serveProbes(params: {
  port: number;
  host: string;
  checks: readonly ReadinessCheck[];
}): Promise<ProbeServer> {
  const routes = probeRoutes({ checks: params.checks });
  const server = createServer((req, res) => {
    routes(req, res).then(
      (answered) => {
        if (!answered) res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
      },
      (error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end(`${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(params.port, params.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : params.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Prometheus keeps its scrape connection alive; it must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}
