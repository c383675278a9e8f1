// A tool's runs as one row: median wall time, highest peak RSS, the quietest
// run's request count, and notes on anything that makes the figures less exact.
import { median } from "./measure.ts";
import type { RunRecord, Tool, ToolResult } from "./report.ts";

/** `found` is what every run must agree on, `what` its name in the note (default: the drifted objects). */
export function summarize<T extends string = Tool>(
  tool: T,
  records: RunRecord[],
  notes: string[],
  options: { found?: (r: RunRecord) => string[] | undefined; what?: string } = {},
): ToolResult<T> {
  const { found = (r: RunRecord) => r.drifted, what = "drifted set" } = options;
  const first = records[0] && found(records[0]);
  for (const r of records.slice(1)) {
    const these = found(r);
    if (first && these && these.join("\n") !== first.join("\n"))
      notes.push(`run ${r.run} found a different ${what} than run 0`);
  }
  const client = records.map((r) => r.clientRequests).filter((c): c is number => c !== undefined);
  // Other clients of a shared cluster only add to the API server's count: the quietest run is the closest.
  const server = Math.min(...records.map((r) => r.serverRequests));
  const clientMedian = client.length ? median(client) : undefined;
  const noisy = records.filter((r) => r.clientRequests !== undefined && r.serverRequests > r.clientRequests + 2);
  if (noisy.length > 0)
    notes.push(
      `another client used the cluster during run(s) ${noisy.map((r) => r.run).join(", ")} (the API server counted ${noisy.map((r) => r.serverRequests).join(", ")} requests); ratios use the client's own count`,
    );
  if (clientMedian !== undefined && server < clientMedian - 2)
    notes.push(`the API server counted fewer requests (${server}) than the client sent (${clientMedian})`);
  return {
    tool,
    runs: records,
    wallSeconds: median(records.map((r) => r.wallSeconds)),
    peakRssMb: Math.max(...records.map((r) => r.peakRssMb)),
    serverRequests: server,
    clientRequests: clientMedian,
    requests: clientMedian ?? server,
    drifted: records[0]?.drifted,
    notes,
  };
}
