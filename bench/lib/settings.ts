// What every benchmark reads from its environment, and the cluster it runs on.
//
//   BENCH_SIZES=10,100,1000,5000       object counts, one repository each
//   BENCH_RUNS=3                       timed runs per tool (median reported)
//   BENCH_KUBECTL_REPEAT_LIMIT=120     seconds: a slower first kubectl diff is not repeated
//   BENCH_KUBECONFIG=FILE              a cluster other than the project's test cluster
//   BENCH_QUIET_WAIT=60                seconds to wait, before each timed run, for the CPUs to be 80% idle
//   BENCH_KEEP=1                       keep the temporary repo and outputs
//   BENCH_RTT=0,20ms                   the round trips to time each size at (default: both); above 0 the timed
//                                      tools reach the API server through a loopback proxy adding that round
//                                      trip (a cluster in another region); set-up and cleanup do not
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDuration, startLatencyProxy } from "../../scripts/cluster/latency-proxy.ts";
import { rttLabel } from "./report.ts";

export const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const projectDir = dirname(benchDir);
export const resultsDir = join(benchDir, "results");

export const sizes = (process.env.BENCH_SIZES ?? "10,100,1000,5000")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
export const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
export const kubectlRepeatLimit = Number(process.env.BENCH_KUBECTL_REPEAT_LIMIT ?? 120);
export const keep = process.env.BENCH_KEEP === "1";
export const quietWait = Number(process.env.BENCH_QUIET_WAIT ?? 60);

/** A file-name-safe timestamp for bench/results/<name>-<stamp>.json. */
export const timestamp = () => new Date().toISOString().replace(/[:.]/g, "-");

export const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

/** BENCH_KUBECONFIG, else the project's test cluster (started when none runs). */
export async function clusterKubeconfig(): Promise<string> {
  if (process.env.BENCH_KUBECONFIG) return process.env.BENCH_KUBECONFIG;
  const { up } = await import("../../scripts/cluster/cluster.ts");
  const { kubeconfig, started } = await up();
  log(started ? `started the test cluster (${kubeconfig})` : `using the running test cluster (${kubeconfig})`);
  return kubeconfig;
}

/** What the timed tools use: a kubeconfig, the round trip it adds, and how the tables name it. */
export interface TimedCluster {
  kubeconfig: string;
  rttMs: number;
  label: string;
}

/**
 * BENCH_RTT=0,20ms: the round trips each size is timed at, on the same objects in one run (default: loopback
 * and 20 ms, a cluster in another region), so the tables show both side by side.
 */
export const roundTrips: number[] = (process.env.BENCH_RTT ?? "0,20ms").split(",").map((text) => {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new Error(`BENCH_RTT=${process.env.BENCH_RTT}: ${(error as Error).message}`, { cause: error });
  }
});

const timed = new Map<number, Promise<TimedCluster>>();
const closers: Array<() => Promise<void>> = [];

/**
 * `kubeconfig` itself at 0 ms, or a copy whose server is a latency proxy in front of it adding `rttMs` per round
 * trip, so undrift and kubectl pay the same round trips. One proxy per round trip serves every benchmark of the
 * process, until closeTimedCluster.
 */
export function timedCluster(kubeconfig: string, rttMs: number): Promise<TimedCluster> {
  let cluster = timed.get(rttMs);
  if (!cluster) {
    cluster = openTimedCluster(kubeconfig, rttMs);
    timed.set(rttMs, cluster);
  }
  return cluster;
}

async function openTimedCluster(kubeconfig: string, rttMs: number): Promise<TimedCluster> {
  const label = rttLabel(rttMs);
  if (rttMs === 0) return { kubeconfig, rttMs, label };
  const { writeKubeconfigFor } = await import("../../scripts/cluster/kubeconfig.ts");
  const server = /server:\s*(\S+)/.exec(readFileSync(kubeconfig, "utf8"))?.[1];
  if (!server) throw new Error(`${kubeconfig}: no cluster server to put a latency proxy in front of`);
  const proxy = await startLatencyProxy({ target: server, rttMs });
  const slow = join(tmpdir(), `undrift-bench-rtt-${rttMs}ms-${process.pid}.yaml`);
  writeKubeconfigFor(kubeconfig, slow, proxy.url);
  closers.push(async () => {
    rmSync(slow, { force: true });
    await proxy.close();
  });
  log(`at ${label}, the timed tools reach ${server} through ${proxy.url}`);
  return { kubeconfig: slow, rttMs, label };
}

/** Stops the latency proxies timedCluster started (and removes their kubeconfigs), so the process can end. */
export async function closeTimedCluster(): Promise<void> {
  await Promise.all(closers.splice(0).map((close) => close()));
  timed.clear();
}

/** Writes bench/results/<name>-<stamp>.json with the machine's facts beside `results` and the printed table. */
export function writeResults(params: { name: string; stamp: string; results: unknown; table: string }): void {
  const { results, table } = params;
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${params.name}-${params.stamp}.json`);
  const record = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, runs, results, table };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  log(`results written to ${file}`);
}
