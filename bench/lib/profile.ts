// Where a scan's time goes: self time from a V8 .cpuprofile (`node --cpu-prof`),
// summed by function and by file, for the bench's BENCH_PROFILE=1 mode.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { undriftCommand } from "./commands.ts";
import { measure } from "./measure.ts";
import { tail } from "./outputs.ts";

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  totalMs: number;
  byFunction: Array<{ name: string; ms: number }>;
  byFile: Array<{ file: string; ms: number }>;
}

function shortUrl(url: string): string {
  if (!url) return "(native / vm)";
  const path = url.replace(/^file:\/\//, "");
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "node_modules/".length).split("/");
    return `node_modules/${rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const src = path.search(/\/(src|bench|bin)\//);
  return src >= 0 ? path.slice(src + 1) : path;
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const fn = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const where = shortUrl(frame.url);
    const name = `${frame.functionName || "(anonymous)"} ${frame.url ? `${where}:${frame.lineNumber + 1}` : ""}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + us);
    const fileKey = frame.url ? where : frame.functionName || "(native / vm)";
    files.set(fileKey, (files.get(fileKey) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    byFunction: sorted(fn).map(([name, us]) => ({ name, ms: us / 1000 })),
    byFile: sorted(files).map(([file, us]) => ({ file, ms: us / 1000 })),
  };
}

export function formatProfile(s: ProfileSummary): string {
  const lines = [
    `CPU profile of one undrift run (main thread): ${s.totalMs.toFixed(0)} ms profiled`,
    "",
    "self time by file:",
  ];
  for (const f of s.byFile) lines.push(`  ${f.ms.toFixed(0).padStart(6)} ms  ${f.file}`);
  lines.push("", "self time by function:");
  for (const f of s.byFunction) lines.push(`  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}`);
  return lines.join("\n");
}

/**
 * One more, untimed, run of undrift under --cpu-prof (BENCH_PROFILE=1): where
 * the main thread's time goes. Profiles stay in `dir`; node names each
 * CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, the main thread being 0.
 */
export async function profileUndrift(params: { args: string[]; dir: string; outDir: string }): Promise<string> {
  const { command, args } = undriftCommand(params.args, { cpuProfileDir: params.dir });
  const m = await measure({ command, args, dir: params.outDir, label: "profile" });
  const main = existsSync(params.dir)
    ? readdirSync(params.dir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    : undefined;
  if (!main)
    throw new Error(`the profiled run (exit ${m.exitCode}) wrote no main-thread profile: ${tail(m.stderrFile)}`);
  return formatProfile(summarizeProfile(join(params.dir, main)));
}
