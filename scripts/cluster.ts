// npm run cluster:up | cluster:down, and a latency proxy for benchmarks.
//   up [--owner-file FILE]      the last stdout line is KUBECONFIG=<path>, which scripts and people can eval
//                               or copy; when this call started the cluster, FILE receives its owner token
//   down [--owner-file FILE]    stops the cluster; with FILE, only the one whose up wrote that token there
//   proxy --rtt 20ms            serves the API server through a loopback proxy adding that round trip
//                               until interrupted; its kubeconfig is the last stdout line
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { down, running, stateDir, up } from "./cluster/cluster.ts";
import { writeKubeconfigFor } from "./cluster/kubeconfig.ts";
import { parseDuration, startLatencyProxy } from "./cluster/latency-proxy.ts";

const command = process.argv[2];
const { values } = parseArgs({
  args: process.argv.slice(3),
  options: { "owner-file": { type: "string" }, rtt: { type: "string" }, port: { type: "string" } },
});
try {
  if (command === "up") {
    const { kubeconfig, started, owner } = await up();
    if (started && values["owner-file"] && owner) writeFileSync(values["owner-file"], owner);
    console.error(started ? "test cluster started" : "test cluster already running; reusing it");
    console.log(`KUBECONFIG=${kubeconfig}`);
  } else if (command === "down") {
    const file = values["owner-file"];
    if (file !== undefined) {
      const owner = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
      const stopped = owner !== "" && (await down({ owner }));
      console.error(stopped ? "test cluster stopped" : "test cluster left running: this owner did not start it");
    } else {
      await down();
      console.error("test cluster stopped");
    }
  } else if (command === "proxy") {
    const state = await running();
    if (!state) throw new Error("no test cluster is running; start one with npm run cluster:up");
    const rttMs = parseDuration(values.rtt ?? "20ms");
    const proxy = await startLatencyProxy({ target: state.server, rttMs, port: Number(values.port ?? 0) });
    const kubeconfig = join(stateDir, `kubeconfig-rtt-${rttMs}ms`);
    writeKubeconfigFor(state.kubeconfig, kubeconfig, proxy.url);
    console.error(`proxying ${proxy.url} -> ${state.server} with ${rttMs}ms added round trip; Ctrl-C stops`);
    console.log(`KUBECONFIG=${kubeconfig}`);
    process.on("SIGINT", () => proxy.close().then(() => process.exit(0)));
    process.on("SIGTERM", () => proxy.close().then(() => process.exit(0)));
  } else {
    console.error(
      "usage: node scripts/cluster.ts up [--owner-file FILE] | down [--owner-file FILE] | proxy --rtt 20ms",
    );
    process.exit(2);
  }
} catch (error) {
  console.error(`cluster:${command}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
