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
  return readKubectlDiffActions(stdoutFile)
    .map((d) => d.key)
    .sort();
}

/** Each object `kubectl diff` printed, and whether it would be created (its LIVE side is empty: `@@ -0,0 ...`). */
export function readKubectlDiffActions(stdoutFile: string): Array<{ key: string; created: boolean }> {
  const found: Array<{ key: string; created: boolean }> = [];
  let hunkSeen = true;
  for (const line of readFileSync(stdoutFile, "utf8").split("\n")) {
    if (!hunkSeen && line.startsWith("@@ ")) {
      hunkSeen = true;
      found[found.length - 1]!.created = line.startsWith("@@ -0,0 ");
      continue;
    }
    const header = diffHeader.exec(line);
    if (!header) continue;
    const m = fileName.exec(header[1]!);
    if (!m) throw new Error(`kubectl diff: cannot read the object of "${line}"`);
    found.push({ key: keyOf({ kind: m[3]!, namespace: m[4] || undefined, name: m[5]! }), created: false });
    hunkSeen = false;
  }
  return found;
}

/** Requests kubectl sent, from its `-v=6` log: one `round_trippers` line per response. */
export function countKubectlRequests(stderrFile: string): number {
  const request = /round_trippers\.go:\d+\] (GET|POST|PUT|PATCH|DELETE|HEAD) https?:\/\//;
  return readFileSync(stderrFile, "utf8")
    .split("\n")
    .filter((line) => request.test(line)).length;
}

/** What `undrift preview --output json` says merging head would do, as sorted `Kind namespace/name` keys. */
export interface PreviewOutput {
  change: string[];
  create: string[];
  /** Live objects head no longer declares, whatever is done to them; `pruneActions` counts delete, orphan, keep, refused. */
  prune: string[];
  pruneActions: Record<string, number>;
  /** The prune entries whose action is delete. */
  wouldDelete: string[];
  /** The base scan's drifted objects: the drift the cluster has now. */
  driftNow: string[];
  summary: Record<string, number>;
  problems: number;
}

interface PreviewJson {
  status: string;
  summary: Record<string, number>;
  resources: Array<{ kind: string; namespace?: string; name: string; action: string }>;
  prune: Array<{ kind: string; namespace?: string; name: string; action: string }>;
  drift?: ReportJson;
  problems?: unknown[];
}

export function readUndriftPreview(stdoutFile: string): PreviewOutput {
  const report = JSON.parse(readFileSync(stdoutFile, "utf8")) as PreviewJson;
  if (report.status !== "previewed") throw new Error(`undrift preview: status ${report.status}`);
  const keys = (list: Array<{ kind: string; namespace?: string; name: string }>) => list.map(keyOf).sort();
  const pruneActions: Record<string, number> = {};
  for (const p of report.prune) pruneActions[p.action] = (pruneActions[p.action] ?? 0) + 1;
  return {
    change: keys(report.resources.filter((r) => r.action === "change")),
    create: keys(report.resources.filter((r) => r.action === "create")),
    prune: keys(report.prune),
    pruneActions,
    wouldDelete: keys(report.prune.filter((p) => p.action === "delete")),
    driftNow: keys(report.drift?.resources.filter((r) => r.status === "drifted") ?? []),
    summary: report.summary,
    problems: report.problems?.length ?? 0,
  };
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
