// Reads what each measured process left in its output files.
import { readFileSync } from "node:fs";
import { keyOf } from "./generate.ts";

export interface UndriftOutput {
  drifted: string[];
  summary: { inSync: number; drifted: number; missing: number; orphaned: number };
  problems: number;
  requests?: number;
  dryRuns?: number;
  durationMs?: number;
}

interface ReportJson {
  summary: UndriftOutput["summary"];
  resources: Array<{ kind: string; namespace?: string; name: string; status: string }>;
  problems?: unknown[];
  stats?: { requests?: number; dryRuns?: number; durationMs?: number };
}

/** `undrift scan --output json`: the drifted objects, the summary and the scan's own request count. */
export function readUndrift(stdoutFile: string): UndriftOutput {
  const report = JSON.parse(readFileSync(stdoutFile, "utf8")) as ReportJson;
  return {
    drifted: report.resources
      .filter((r) => r.status === "drifted")
      .map(keyOf)
      .sort(),
    summary: report.summary,
    problems: report.problems?.length ?? 0,
    requests: report.stats?.requests,
    dryRuns: report.stats?.dryRuns,
    durationMs: report.stats?.durationMs,
  };
}

// kubectl diff names each file <group.>version.Kind.namespace.name (namespace empty when cluster-scoped).
const diffHeader = /^diff -u -N \S*\/LIVE-[^/]+\/(\S+) \S*\/MERGED-/;
const fileName = /^(?:(.+)\.)?(v\d+(?:(?:alpha|beta)\d+)?)\.([A-Za-z0-9]+)\.([a-z0-9-]*)\.(.+)$/;

/** The objects `kubectl diff` printed a diff for, from its `diff -u -N LIVE-... MERGED-...` headers. */
export function readKubectlDiff(stdoutFile: string): string[] {
  const found: string[] = [];
  for (const line of readFileSync(stdoutFile, "utf8").split("\n")) {
    const header = diffHeader.exec(line);
    if (!header) continue;
    const m = fileName.exec(header[1]!);
    if (!m) throw new Error(`kubectl diff: cannot read the object of "${line}"`);
    found.push(keyOf({ kind: m[3]!, namespace: m[4] || undefined, name: m[5]! }));
  }
  return found.sort();
}

/** Requests kubectl sent, from its `-v=6` log: one `round_trippers` line per response. */
export function countKubectlRequests(stderrFile: string): number {
  const request = /round_trippers\.go:\d+\] (GET|POST|PUT|PATCH|DELETE|HEAD) https?:\/\//;
  return readFileSync(stderrFile, "utf8")
    .split("\n")
    .filter((line) => request.test(line)).length;
}

export interface FloorOutput {
  objects: number;
  live: number;
  kinds: number;
  requests: number;
  durationMs: number;
}

export function readFloor(stdoutFile: string): FloorOutput {
  return JSON.parse(readFileSync(stdoutFile, "utf8").trim().split("\n").pop()!) as FloorOutput;
}

/** Lines of the process's stderr worth showing when it failed. */
export function tail(file: string, lines = 5): string {
  return readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
}
