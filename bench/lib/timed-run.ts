// One timed run of a tool: wait for the machine to be quiet, then measure the
// process (wall time, peak RSS) and the API requests the server counted meanwhile.
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Command } from "./commands.ts";
import { delta, type RequestCounts, scrapeRequestTotal } from "./kube.ts";
import { type Measured, measure, waitForQuiet } from "./measure.ts";
import type { RunRecord } from "./report.ts";
import { kubectlRepeatLimit, log, quietWait } from "./settings.ts";

export interface TimedRun extends Measured {
  /** Share of CPU time idle just before the run. */
  idleBefore: number;
  /** Counted by the API server during the run. */
  requests: RequestCounts;
}

// undrift's discovery cache, the bench's own (never the user's): the first timed run of a process finds
// it cold, the later ones warm, as a user's second scan does.
const discoveryCache = process.env.UNDRIFT_DISCOVERY_CACHE ?? join(tmpdir(), `undrift-bench-discovery-${process.pid}`);
if (!process.env.UNDRIFT_DISCOVERY_CACHE)
  process.on("exit", () => rmSync(discoveryCache, { recursive: true, force: true }));

export async function timedRun(params: Command & { dir: string; label: string; kc: KubeConfig }): Promise<TimedRun> {
  // kubectl diff runs `diff`; keep it the plain one whatever the caller's environment says.
  const env = { ...process.env, KUBECTL_EXTERNAL_DIFF: "", UNDRIFT_DISCOVERY_CACHE: discoveryCache };
  const idleBefore = await waitForQuiet(quietWait);
  if (idleBefore < 0.8) log(`  the CPUs were only ${(idleBefore * 100).toFixed(0)}% idle before ${params.label}`);
  const before = await scrapeRequestTotal(params.kc);
  const m = await measure({ command: params.command, args: params.args, dir: params.dir, label: params.label, env });
  const requests = delta(before, await scrapeRequestTotal(params.kc));
  return { ...m, idleBefore, requests };
}

/** The record of a run before the tool's own output is read into it. */
export function runRecord(run: number, t: TimedRun): RunRecord {
  return {
    run,
    wallSeconds: t.wallSeconds,
    peakRssMb: t.peakRssMb,
    exitCode: t.exitCode,
    serverRequests: t.requests.requests,
    serverRequestsRaw: t.requests.raw,
    clientRequests: undefined,
    idleBefore: t.idleBefore,
  };
}

/** The one-line log of a finished run. */
export function logRun(tool: string, r: RunRecord, found: string): void {
  log(
    `  ${tool} run ${r.run}: ${r.wallSeconds.toFixed(2)}s, ${r.serverRequests} requests (client: ${r.clientRequests ?? "?"}), ${r.peakRssMb.toFixed(0)} MB, exit ${r.exitCode}${found ? `, ${found}` : ""}`,
  );
}

/** Whether to skip a tool's run `run`: its first run took over BENCH_KUBECTL_REPEAT_LIMIT (said once, in `notes`). */
export function tooSlowToRepeat(records: RunRecord[], run: number, notes: string[]): boolean {
  const first = records[0];
  if (!first || first.wallSeconds <= kubectlRepeatLimit) return false;
  if (run === 1) notes.push(`ran once: its first run took ${first.wallSeconds.toFixed(0)}s (> ${kubectlRepeatLimit}s)`);
  return true;
}
