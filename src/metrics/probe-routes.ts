// The three paths an operator's tools ask a process, on web and worker alike:
//   /healthz  the process is alive: 200 while it can answer at all (liveness probe)
//   /readyz   every readiness check passes: 200 "ok", else 503 with one line per
//             check in the kube-apiserver's `/readyz?verbose` style ([+] / [-])
//   /metrics  the process's Prometheus series (undrift-metrics.ts)
// Usage: `probot run`'s `addHandler(probeRoutes({ checks }))`, or serveProbes() for a worker alone.
import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics as processMetrics, type UndriftMetrics } from "./undrift-metrics.ts";

/** One thing the process needs to do its work; `check` resolves, or rejects with a one-line reason. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** A check that takes longer than this fails: a probe must answer within the kubelet's timeout (1s by default). */
const CHECK_TIMEOUT_MS = 900;

/** A request handler that answers the three paths and returns false for any other, as Probot's handlers do. */
export function probeRoutes(params: { checks: readonly ReadinessCheck[]; metrics?: UndriftMetrics }) {
  const m = params.metrics ?? processMetrics;
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("ok\n");
    } else if (path === "/readyz") {
      const results = await Promise.all(params.checks.map(runCheck));
      const ready = results.every((r) => r.ok);
      const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: ${r.reason}`));
      res
        .writeHead(ready ? 200 : 503, { "content-type": "text/plain; charset=utf-8" })
        .end(ready ? "ok\n" : `${lines.join("\n")}\nreadyz check failed\n`);
    } else if (path === "/metrics") {
      const text = await m.registry.metrics();
      res.writeHead(200, { "content-type": m.registry.contentType }).end(text);
    } else {
      return false;
    }
    return true;
  };
}

async function runCheck(check: ReadinessCheck): Promise<{ name: string; ok: boolean; reason?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return { name: check.name, ok: true };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { name: check.name, ok: false, reason };
  } finally {
    clearTimeout(timer);
  }
}
