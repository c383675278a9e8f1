// The benchmark's result shape and its markdown table.
import type { Injection } from "./drift.ts";

export type Tool = "undrift" | "kubectl" | "floor";

export const toolLabels: Record<Tool, string> = {
  undrift: "undrift scan",
  kubectl: "kubectl diff --server-side",
  floor: "floor (list+render)",
};

export interface RunRecord {
  run: number;
  wallSeconds: number;
  peakRssMb: number;
  exitCode: number;
  /** Counted by the API server (`apiserver_request_total`, its own timers left out). */
  serverRequests: number;
  serverRequestsRaw: number;
  /** Counted by the client itself: undrift's stats.requests, kubectl's -v=6 log, the floor's KubeClient. */
  clientRequests: number | undefined;
  /** Share of CPU time idle just before the run (other processes on the machine). */
  idleBefore: number;
  /** The process's own measure of its work, from start to report (undrift's stats.durationMs, the floor's). */
  inProcessMs?: number;
  /** Objects found drifted (undrift, kubectl). */
  drifted?: string[];
}

export interface ToolResult<T extends string = Tool> {
  tool: T;
  runs: RunRecord[];
  wallSeconds: number;
  peakRssMb: number;
  /** The API server's count in the quietest run (other clients of the cluster only add to it). */
  serverRequests: number;
  /** The client's own count (median of runs; the same every run). */
  clientRequests: number | undefined;
  /** What the ratios use: the client's own count, exact for the process, else the API server's. */
  requests: number;
  drifted?: string[];
  notes: string[];
}

export interface Comparison {
  injected: number;
  injectedVisibleToKubectl: number;
  undriftFound: number;
  kubectlFound: number;
  /** undrift found exactly what was injected. */
  undriftEqualsInjected: boolean;
  /** kubectl found exactly the injected drift an SSA dry-run can see. */
  kubectlEqualsVisible: boolean;
  /** Every object kubectl diff found, undrift found too, and undrift's extra ones are exactly the hand-added fields. */
  sameAsKubectl: boolean;
  onlyUndrift: string[];
  onlyKubectl: string[];
  missedByUndrift: string[];
  extraInUndrift: string[];
}

export interface SizeResult {
  n: number;
  /** The round trip the timed tools paid (0: loopback). */
  rttMs: number;
  /** 1-minute load average when this size started. */
  loadAverageBefore: number;
  objects: number;
  target: string;
  namespaces: string[];
  applySeconds: number;
  injected: Injection[];
  tools: Record<Tool, ToolResult>;
  comparison: Comparison;
  undriftSummary?: { inSync: number; drifted: number; missing: number; orphaned: number };
  undriftDryRuns?: number;
  ratios: { kubectlOverUndriftTime: number; kubectlOverUndriftRequests: number; undriftOverFloorTime: number };
  targets: Array<{ name: string; met: boolean; value: string }>;
  /** BENCH_PROFILE=1: where one undrift scan's CPU time went. */
  cpuProfile?: string;
  leftAfterCleanup?: number;
}

/**
 * How many times faster than kubectl diff undrift must be at N objects (issue "Fast at every size"): the loopback
 * figure at 0 ms, the 20 ms figure over any added round trip; 1 means merely faster. Undefined between sizes.
 */
export function speedTargets(n: number, rttMs: number): number | undefined {
  const targets: Record<number, [number, number]> = { 10: [1, 3], 100: [2, 5], 1000: [8, 15], 5000: [15, 30] };
  const t = targets[n];
  return t && (rttMs === 0 ? t[0] : t[1]);
}

/** How the tables name a round trip. */
export const rttLabel = (rttMs: number) => (rttMs === 0 ? "loopback" : `${rttMs} ms`);

export const fmtInt = (n: number | undefined) => (n === undefined ? "?" : n.toLocaleString("en-US"));
export const fmtSec = (s: number) => (s < 10 ? s.toFixed(2) : s.toFixed(1));

export function compare(params: { injected: Injection[]; undrift: string[]; kubectl: string[] }): Comparison {
  const all = new Set(params.injected.map((i) => i.key));
  const visible = new Set(params.injected.filter((i) => i.kubectlSees).map((i) => i.key));
  const invisible = new Set(params.injected.filter((i) => !i.kubectlSees).map((i) => i.key));
  const u = new Set(params.undrift);
  const k = new Set(params.kubectl);
  const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
  const onlyUndrift = [...u].filter((x) => !k.has(x)).sort();
  const onlyKubectl = [...k].filter((x) => !u.has(x)).sort();
  return {
    injected: all.size,
    injectedVisibleToKubectl: visible.size,
    undriftFound: u.size,
    kubectlFound: k.size,
    undriftEqualsInjected: sameSet(u, all),
    kubectlEqualsVisible: sameSet(k, visible),
    sameAsKubectl: onlyKubectl.length === 0 && sameSet(new Set(onlyUndrift), invisible),
    onlyUndrift,
    onlyKubectl,
    missedByUndrift: [...all].filter((x) => !u.has(x)).sort(),
    extraInUndrift: [...u].filter((x) => !all.has(x)).sort(),
  };
}

/** Median wall time with the range of the runs. */
export function wallCell(t: ToolResult<string>): string {
  const walls = t.runs.map((r) => r.wallSeconds);
  if (walls.length === 1) return `${fmtSec(t.wallSeconds)} (1 run)`;
  return `${fmtSec(t.wallSeconds)} (${fmtSec(Math.min(...walls))}–${fmtSec(Math.max(...walls))})`;
}

function driftCell(t: ToolResult, c: Comparison): string {
  if (t.tool === "floor") return "– (no comparison)";
  if (t.tool === "undrift")
    return `${c.undriftFound} of ${c.injected} injected; same as injected: ${c.undriftEqualsInjected ? "yes" : "no"}`;
  const hidden = c.injected - c.injectedVisibleToKubectl;
  return `${c.kubectlFound} of ${c.injected} injected; same as injected: ${c.kubectlEqualsVisible ? "yes" : "no"}${
    hidden
      ? ` (the ${c.injectedVisibleToKubectl} it can see; ${hidden} hand-added fields are invisible to an SSA dry-run)`
      : ""
  }`;
}

export function markdown(results: SizeResult[]): string {
  const out: string[] = [];
  out.push(...sideBySide(results), "");
  out.push(
    "| | N | round trip | wall time (s), median (min–max) | API requests (API server, quietest run / client's own count) | peak RSS (MB) | drifted objects found |",
  );
  out.push("|---|---:|---|---:|---:|---:|---|");
  for (const r of results) {
    for (const tool of ["undrift", "kubectl", "floor"] as const) {
      const t = r.tools[tool];
      out.push(
        `| ${toolLabels[tool]} | ${fmtInt(r.n)} | ${rttLabel(r.rttMs)} | ${wallCell(t)} | ${fmtInt(t.serverRequests)} / ${fmtInt(t.clientRequests)} | ${t.peakRssMb.toFixed(0)} | ${driftCell(t, r.comparison)} |`,
      );
    }
  }
  out.push("");
  out.push(
    "| N | round trip | kubectl/undrift time | kubectl/undrift requests | undrift/floor time | undrift = kubectl (+ hand-added fields) |",
  );
  out.push("|---:|---|---:|---:|---:|---|");
  for (const r of results) {
    const c = r.comparison;
    out.push(
      `| ${fmtInt(r.n)} | ${rttLabel(r.rttMs)} | ${r.ratios.kubectlOverUndriftTime.toFixed(2)}x | ${r.ratios.kubectlOverUndriftRequests.toFixed(1)}x | ${r.ratios.undriftOverFloorTime.toFixed(2)}x | ${c.sameAsKubectl ? "yes" : `no (only undrift: ${c.onlyUndrift.join(", ") || "none"}; only kubectl: ${c.onlyKubectl.join(", ") || "none"})`} |`,
    );
  }
  for (const r of results) {
    out.push("", `Targets at N = ${fmtInt(r.n)}, ${rttLabel(r.rttMs)}:`);
    for (const t of r.targets) out.push(`- ${t.met ? "met" : "MISSED"}: ${t.name} (${t.value})`);
    if (r.cpuProfile) out.push("", "```", r.cpuProfile, "```");
    const notes = Object.values(r.tools).flatMap((t) => t.notes.map((n) => `${toolLabels[t.tool]}: ${n}`));
    for (const n of notes) out.push(`- note: ${n}`);
  }
  return out.join("\n");
}

/** One row per N: undrift and kubectl diff at each round trip, with the ratio and the issue's target for it. */
function sideBySide(results: SizeResult[]): string[] {
  const trips = [...new Set(results.map((r) => r.rttMs))];
  const head = trips.flatMap((t) => [
    `undrift, ${rttLabel(t)}`,
    `kubectl diff, ${rttLabel(t)}`,
    `ratio (target), ${rttLabel(t)}`,
  ]);
  const out = [`| N | ${head.join(" | ")} |`, `|---:|${head.map(() => "---:").join("|")}|`];
  for (const n of [...new Set(results.map((r) => r.n))]) {
    const cells = trips.flatMap((t) => {
      const r = results.find((x) => x.n === n && x.rttMs === t);
      if (!r) return ["–", "–", "–"];
      const u = r.tools.undrift;
      const target = speedTargets(n, t);
      const ratio = `${r.ratios.kubectlOverUndriftTime.toFixed(2)}x${target ? ` (${target === 1 ? ">1" : `≥${target}`}x)` : ""}`;
      return [
        `${fmtSec(u.wallSeconds)} s, ${fmtInt(u.requests)} req, ${u.peakRssMb.toFixed(0)} MB`,
        `${fmtSec(r.tools.kubectl.wallSeconds)} s, ${fmtInt(r.tools.kubectl.requests)} req`,
        ratio,
      ];
    });
    out.push(`| ${fmtInt(n)} | ${cells.join(" | ")} |`);
  }
  return out;
}
