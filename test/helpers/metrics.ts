// /metrics as Prometheus scrapes it from a worker: this process's registry (the
// app harness runs the workers here) served by undrift's own probe server
// (src/metrics/serve-probes.ts) on a loopback port, and one sample read from
// the text. Usage:
//
//   const metrics = await serveMetrics();            // close() it in afterEach
//   const text = await metrics.scrape();
//   sample(text, 'undrift_scans_total{cluster="test",result="drifted"}');   // 1, or undefined when absent
import { serveProbes } from "../../src/metrics/serve-probes.ts";

export interface MetricsEndpoint {
  /** GET /metrics, its text. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

export async function serveMetrics(): Promise<MetricsEndpoint> {
  const probes = await serveProbes({ port: 0, host: "127.0.0.1", checks: [] });
  return {
    scrape: async () => (await fetch(`http://127.0.0.1:${probes.port}/metrics`)).text(),
    close: () => probes.close(),
  };
}

/** One sample's value from the Prometheus text (`name{labels in exposition order}`), or undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
