// Runs one command as its own process, as a user would, and measures its wall
// time and peak memory (max RSS, from GNU time, or VmHWM polled from /proc when
// /usr/bin/time is missing). Output goes to files, so no pipe paces the process.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";

const gnuTime = "/usr/bin/time";

export interface Measured {
  exitCode: number;
  wallSeconds: number;
  peakRssMb: number;
  stdoutFile: string;
  stderrFile: string;
}

function readHwmKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export async function measure(params: {
  command: string;
  args: string[];
  dir: string;
  label: string;
  env?: NodeJS.ProcessEnv;
}): Promise<Measured> {
  const stdoutFile = join(params.dir, `${params.label}.stdout`);
  const stderrFile = join(params.dir, `${params.label}.stderr`);
  const timeFile = join(params.dir, `${params.label}.time`);
  const useTime = existsSync(gnuTime);
  const [command, args] = useTime
    ? [gnuTime, ["-f", "%e %M", "-o", timeFile, params.command, ...params.args]]
    : [params.command, params.args];
  const out = openSync(stdoutFile, "w");
  const err = openSync(stderrFile, "w");
  const started = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", out, err], env: params.env ?? process.env });
  let hwmKb = 0;
  const poll = useTime ? undefined : setInterval(() => (hwmKb = Math.max(hwmKb, readHwmKb(child.pid!))), 20);
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 2)));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  closeSync(out);
  closeSync(err);
  if (useTime) {
    // GNU time writes "Command exited with non-zero status N" first when the command fails.
    const lines = readFileSync(timeFile, "utf8").trim().split("\n");
    const [, maxRssKb] = lines[lines.length - 1]!.split(" ");
    hwmKb = Number(maxRssKb);
  }
  return { exitCode, wallSeconds, peakRssMb: hwmKb / 1024, stdoutFile, stderrFile };
}

/** The p-th percentile (nearest rank, rounded) of `sorted`, ascending; 0 when it is empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function cpuTimes(): { idle: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { idle, total: fields.reduce((a, b) => a + b, 0) };
}

/** Share of CPU time idle over the next `ms` (1 when /proc/stat cannot be read). */
export async function idleShare(ms = 1000): Promise<number> {
  if (!existsSync("/proc/stat")) return 1;
  const a = cpuTimes();
  await new Promise((r) => setTimeout(r, ms));
  const b = cpuTimes();
  return b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : 1;
}

/**
 * Waits, up to `maxSeconds`, until the machine is mostly idle, so that another
 * process's work is not timed as ours. Returns the last idle share seen.
 */
export async function waitForQuiet(maxSeconds: number, threshold = 0.8): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  let idle = await idleShare();
  while (idle < threshold && performance.now() < deadline) idle = await idleShare(2000);
  return idle;
}
