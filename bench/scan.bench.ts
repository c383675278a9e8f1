// npm run bench: undrift scan against kubectl diff --server-side and against the
// floor (LIST + render, no comparison), on N generated objects with 1% drift.
//
//   npm run bench                      every N at every round trip (then the preview benchmark, bench/run.ts)
//   BENCH_ONLY=scan npm run bench      this benchmark only
//   BENCH_SIZES=1000 npm run bench     only N = 1,000 (default: 10, 100, 1,000 and 5,000)
//   BENCH_RTT=0,20ms                   the round trips each N is timed at, on the same objects (default: both)
//   BENCH_RUNS=3                       timed runs per tool (median reported)
//   BENCH_KUBECTL_REPEAT_LIMIT=120     seconds: a slower first kubectl diff is not repeated
//   BENCH_KUBECONFIG=FILE              a cluster other than the project's test cluster
//   BENCH_QUIET_WAIT=60                seconds to wait, before each timed run, for the CPUs to be 80% idle
//   BENCH_KEEP=1                       keep the temporary repo and outputs
//   BENCH_SETUP_ONLY=1                 generate, apply and drift, then stop: no timing, no cleanup
//                                      (prints the scan command and how to clean up by hand)
//   BENCH_PROFILE=1                    one more, untimed, undrift scan under --cpu-prof;
//                                      prints where its time goes, keeps the profile in bench/results/
//
// Per N: generate a GitOps repo in a temp dir, server-side apply it (field manager
// `undrift`, untimed), drift 1% of the objects with kubectl, then time each tool
// as its own process at each round trip (wall time, peak RSS, API requests from
// the API server's metrics and the tool's own count), compare the drifted sets,
// print markdown tables (the two round trips side by side) and write
// bench/results/scan-<time>.json. Deletes what it created.
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { kubectlDiffCommand, undriftCommand } from "./lib/commands.ts";
import type { BenchRepo } from "./lib/generate.ts";
import { countKubectlRequests, readFloor, readKubectlDiff, readUndrift, tail } from "./lib/outputs.ts";
import { profileUndrift } from "./lib/profile.ts";
import { compare, markdown, type RunRecord, type SizeResult, speedTargets, type Tool } from "./lib/report.ts";
import {
  benchDir,
  clusterKubeconfig,
  log,
  resultsDir,
  roundTrips,
  runs,
  sizes,
  type TimedCluster,
  timedCluster,
  timestamp,
  writeResults,
} from "./lib/settings.ts";
import { setupRepo } from "./lib/setup-repo.ts";
import { summarize } from "./lib/summarize.ts";
import { logRun, runRecord, timedRun, tooSlowToRepeat } from "./lib/timed-run.ts";
import { closeWorkspace, openWorkspace, releaseWorkspace } from "./lib/workspace.ts";

const profile = process.env.BENCH_PROFILE === "1";
const setupOnly = process.env.BENCH_SETUP_ONLY === "1";
const stamp = timestamp();

const kubeconfig = await clusterKubeconfig();
const kc = loadKubeconfig({ kubeconfig });
const admin = new KubeClient(kc);

// The timed tools reach the cluster through `timedKubeconfig` (a latency proxy above 0 ms); set-up and counting
// use `kubeconfig`.
function toolCommand(tool: Tool, repo: BenchRepo, timedKubeconfig: string): { command: string; args: string[] } {
  switch (tool) {
    case "undrift":
      return undriftCommand([
        ...["scan", "--repo", repo.dir, "--target", repo.target],
        ...["--kubeconfig", timedKubeconfig, "--output", "json"],
      ]);
    case "kubectl":
      return kubectlDiffCommand({ dir: repo.manifestsDir, kubeconfig: timedKubeconfig });
    case "floor":
      return {
        command: process.execPath,
        args: [
          join(benchDir, "floor.ts"),
          "--repo",
          repo.dir,
          "--target",
          repo.target,
          "--kubeconfig",
          timedKubeconfig,
        ],
      };
  }
}

async function timeOnce(
  tool: Tool,
  repo: BenchRepo,
  outDir: string,
  run: number,
  at: TimedCluster,
): Promise<RunRecord> {
  const label = `${tool}-${at.rttMs}ms-${run}`;
  const m = await timedRun({ ...toolCommand(tool, repo, at.kubeconfig), dir: outDir, label, kc });
  const record = runRecord(run, m);
  if (tool === "undrift") {
    if (m.exitCode !== 1 && m.exitCode !== 0)
      throw new Error(`undrift scan exited ${m.exitCode}: ${tail(m.stderrFile)}`);
    const out = readUndrift(m.stdoutFile);
    record.clientRequests = out.requests;
    record.inProcessMs = out.durationMs;
    record.drifted = out.drifted;
    Object.assign(record, { summary: out.summary, dryRuns: out.dryRuns, problems: out.problems });
  } else if (tool === "kubectl") {
    if (m.exitCode > 1) throw new Error(`kubectl diff exited ${m.exitCode}: ${tail(m.stderrFile)}`);
    record.drifted = readKubectlDiff(m.stdoutFile);
    record.clientRequests = countKubectlRequests(m.stderrFile);
  } else {
    if (m.exitCode !== 0) throw new Error(`floor exited ${m.exitCode}: ${tail(m.stderrFile)}`);
    const out = readFloor(m.stdoutFile);
    record.clientRequests = out.requests;
    record.inProcessMs = out.durationMs;
    Object.assign(record, { live: out.live, rendered: out.objects });
  }
  logRun(tool, record, record.drifted ? `${record.drifted.length} drifted` : "");
  return record;
}

interface Prepared {
  n: number;
  load: number;
  repo: BenchRepo;
  applySeconds: number;
  injected: SizeResult["injected"];
  outDir: string;
}

async function benchSize(n: number): Promise<SizeResult[]> {
  const tmp = await mkdtemp(join(tmpdir(), `undrift-bench-${n}-`));
  const entry = openWorkspace(tmp, admin);
  const results: SizeResult[] = [];
  let left: number | undefined;
  try {
    // Two cores share the API server, etcd and the client: say when something else was busy too.
    const load = loadavg()[0]!;
    if (load > 1) log(`N = ${n}: the 1-minute load average is ${load.toFixed(1)}; timings will be noisy`);
    const { repo, applySeconds, injected } = await setupRepo({ workspace: entry, n, kubeconfig, admin });
    const outDir = join(tmp, "out");
    mkdirSync(outDir);

    if (setupOnly) {
      releaseWorkspace(entry);
      const { command, args } = toolCommand("undrift", repo, kubeconfig);
      writeFileSync(join(tmp, "injected.json"), `${JSON.stringify(injected, null, 2)}\n`);
      console.log(`repo: ${repo.dir}\ntarget: ${repo.target}\ninjected: ${join(tmp, "injected.json")}`);
      console.log(`scan: ${[command, ...args].join(" ")}`);
      console.log(
        `clean up: kubectl delete cm,svc,deploy -A -l undrift.dev/target=${repo.target} && kubectl delete ns -l undrift.dev/target=${repo.target} --wait=false && rm -rf ${tmp}`,
      );
      process.exit(0);
    }
    const prepared: Prepared = { n, load, repo, applySeconds, injected, outDir };
    for (const rttMs of roundTrips) results.push(await benchAt(prepared, await timedCluster(kubeconfig, rttMs)));
  } finally {
    log(`N = ${n}: cleaning up`);
    left = await closeWorkspace(entry);
    if (left) log(`N = ${n}: ${left} objects are still there after cleanup`);
  }
  for (const r of results) r.leftAfterCleanup = left;
  return results;
}

/** Times every tool on the prepared objects through `at`, and checks the targets for N at that round trip. */
async function benchAt(prepared: Prepared, at: TimedCluster): Promise<SizeResult> {
  const { n, repo, outDir, injected } = prepared;
  const records: Record<Tool, RunRecord[]> = { undrift: [], kubectl: [], floor: [] };
  const notes: Record<Tool, string[]> = { undrift: [], kubectl: [], floor: [] };
  for (let run = 0; run < runs; run++) {
    for (const tool of ["floor", "undrift", "kubectl"] as const) {
      if (tool === "kubectl" && tooSlowToRepeat(records.kubectl, run, notes.kubectl)) continue;
      records[tool].push(await timeOnce(tool, repo, outDir, run, at));
    }
  }
  let cpuProfile: string | undefined;
  if (profile) {
    const dir = join(resultsDir, `profile-${stamp}-${n}-${at.rttMs}ms`);
    cpuProfile = await profileUndrift({ args: toolCommand("undrift", repo, at.kubeconfig).args, dir, outDir });
    log(`N = ${n}, ${at.label}: ${cpuProfile.replace(/\n/g, "\nbench: ")}`);
    log(`N = ${n}, ${at.label}: profile kept in ${dir}`);
  }
  const tools = {
    undrift: summarize("undrift", records.undrift, notes.undrift),
    kubectl: summarize("kubectl", records.kubectl, notes.kubectl),
    floor: summarize("floor", records.floor, notes.floor),
  };
  const comparison = compare({
    injected,
    undrift: tools.undrift.drifted ?? [],
    kubectl: tools.kubectl.drifted ?? [],
  });
  const u = tools.undrift;
  const k = tools.kubectl;
  const ratios = {
    kubectlOverUndriftTime: k.wallSeconds / u.wallSeconds,
    kubectlOverUndriftRequests: k.requests / u.requests,
    undriftOverFloorTime: u.wallSeconds / tools.floor.wallSeconds,
  };
  const firstUndrift = records.undrift[0] as RunRecord & {
    summary?: SizeResult["undriftSummary"];
    dryRuns?: number;
  };
  if (firstUndrift.summary && firstUndrift.summary.missing + firstUndrift.summary.orphaned > 0)
    notes.undrift.push(
      `reported ${firstUndrift.summary.missing} missing and ${firstUndrift.summary.orphaned} orphaned objects; none were made`,
    );
  const speed = speedTargets(n, at.rttMs);
  const memoryMb = n <= 100 ? 100 : 200;
  return {
    n,
    rttMs: at.rttMs,
    loadAverageBefore: prepared.load,
    objects: repo.objects.length + repo.namespaces.length,
    target: repo.target,
    namespaces: repo.namespaces,
    applySeconds: prepared.applySeconds,
    injected,
    tools,
    comparison,
    undriftSummary: firstUndrift.summary,
    undriftDryRuns: firstUndrift.dryRuns,
    ratios,
    cpuProfile,
    targets: [
      {
        name: "undrift finds exactly the drift kubectl diff finds (plus the hand-added fields it cannot see)",
        met: comparison.sameAsKubectl,
        value: `undrift ${comparison.undriftFound}, kubectl ${comparison.kubectlFound}, injected ${comparison.injected}`,
      },
      ...(speed
        ? [
            {
              name: speed === 1 ? "faster than kubectl diff" : `>= ${speed}x faster than kubectl diff`,
              met: speed === 1 ? ratios.kubectlOverUndriftTime > 1 : ratios.kubectlOverUndriftTime >= speed,
              value: `${ratios.kubectlOverUndriftTime.toFixed(2)}x`,
            },
          ]
        : []),
      ...(n === 100
        ? [{ name: "<= 20 API requests (warm discovery cache)", met: u.requests <= 20, value: `${u.requests}` }]
        : []),
      { name: `<= ${memoryMb} MB peak memory`, met: u.peakRssMb <= memoryMb, value: `${u.peakRssMb.toFixed(0)} MB` },
    ],
  };
}

const results: SizeResult[] = [];
for (const n of sizes) results.push(...(await benchSize(n)));

const table = markdown(results);
console.log(table);
writeResults({ name: "scan", stamp, results, table });
