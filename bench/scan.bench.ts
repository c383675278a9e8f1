// npm run bench: undrift scan against kubectl diff --server-side and against the
// floor (LIST + render, no comparison), on N generated objects with 1% drift.
//
//   npm run bench                      N = 1,000 and 5,000
//   BENCH_SIZES=1000 npm run bench     only N = 1,000
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
// as its own process (wall time, peak RSS, API requests from the API server's
// metrics and the tool's own count), compare the drifted sets, print a markdown
// table and write bench/results/scan-<time>.json. Deletes what it created.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { injectDrift } from "./lib/drift.ts";
import { type BenchRepo, generateRepo, runId } from "./lib/generate.ts";
import { applyAll, countLeft, deleteAll, delta, scrapeRequestTotal } from "./lib/kube.ts";
import { measure, median, waitForQuiet } from "./lib/measure.ts";
import { countKubectlRequests, readFloor, readKubectlDiff, readUndrift, tail } from "./lib/outputs.ts";
import { formatProfile, summarizeProfile } from "./lib/profile.ts";
import { compare, markdown, type RunRecord, type SizeResult, type Tool, type ToolResult } from "./lib/report.ts";

const benchDir = dirname(fileURLToPath(import.meta.url));
const projectDir = dirname(benchDir);
const sizes = (process.env.BENCH_SIZES ?? "1000,5000")
  .split(",")
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const kubectlRepeatLimit = Number(process.env.BENCH_KUBECTL_REPEAT_LIMIT ?? 120);
const keep = process.env.BENCH_KEEP === "1";
const quietWait = Number(process.env.BENCH_QUIET_WAIT ?? 60);
const profile = process.env.BENCH_PROFILE === "1";
const setupOnly = process.env.BENCH_SETUP_ONLY === "1";
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = join(benchDir, "results");

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

async function clusterKubeconfig(): Promise<string> {
  if (process.env.BENCH_KUBECONFIG) return process.env.BENCH_KUBECONFIG;
  const { up } = await import("../scripts/cluster/cluster.ts");
  const { kubeconfig, started } = await up();
  log(started ? `started the test cluster (${kubeconfig})` : `using the running test cluster (${kubeconfig})`);
  return kubeconfig;
}

const kubeconfig = await clusterKubeconfig();
const kc = loadKubeconfig({ kubeconfig });
const admin = new KubeClient(kc);

// What the bench created and has not removed yet, for cleanup on Ctrl-C too.
const pending = new Set<{ repo?: BenchRepo; tmp: string }>();
async function cleanup(entry: { repo?: BenchRepo; tmp: string }): Promise<number | undefined> {
  pending.delete(entry);
  let left: number | undefined;
  if (entry.repo) {
    try {
      await deleteAll(admin, entry.repo);
      left = await countLeft(admin, entry.repo);
    } catch (error) {
      log(`cleanup of ${entry.repo.target} failed: ${error instanceof Error ? error.message : String(error)}`);
      log(`remove by hand: kubectl delete cm,svc,deploy -A -l undrift.dev/target=${entry.repo.target}`);
    }
  }
  if (!keep) await rm(entry.tmp, { recursive: true, force: true });
  else log(`kept ${entry.tmp}`);
  return left;
}
process.once("SIGINT", () => {
  log("interrupted; cleaning up");
  Promise.all([...pending].map(cleanup)).finally(() => process.exit(130));
});

function toolCommand(tool: Tool, repo: BenchRepo): { command: string; args: string[] } {
  switch (tool) {
    case "undrift":
      // Run as a user runs it: the bin itself (its shebang sets Node's flags); npm run puts the pinned node on the PATH.
      return {
        command: join(projectDir, "bin/undrift.js"),
        args: ["scan", "--repo", repo.dir, "--target", repo.target, "--kubeconfig", kubeconfig, "--output", "json"],
      };
    case "kubectl":
      return {
        command: "kubectl",
        args: [
          "diff",
          "--server-side",
          "--field-manager=undrift",
          // Without it the dry-run apply fails with a conflict on every field a person took over.
          "--force-conflicts",
          "-f",
          repo.manifestsDir,
          "-R",
          "--kubeconfig",
          kubeconfig,
          "-v=6", // one log line per request: kubectl's own count
        ],
      };
    case "floor":
      return {
        command: process.execPath,
        args: [join(benchDir, "floor.ts"), "--repo", repo.dir, "--target", repo.target, "--kubeconfig", kubeconfig],
      };
  }
}

async function timeOnce(tool: Tool, repo: BenchRepo, outDir: string, run: number): Promise<RunRecord> {
  const { command, args } = toolCommand(tool, repo);
  // kubectl diff runs `diff`; keep it the plain one whatever the caller's environment says.
  const env = { ...process.env, KUBECTL_EXTERNAL_DIFF: "" };
  const idleBefore = await waitForQuiet(quietWait);
  if (idleBefore < 0.8) log(`  the CPUs were only ${(idleBefore * 100).toFixed(0)}% idle before ${tool} run ${run}`);
  const before = await scrapeRequestTotal(kc);
  const m = await measure({ command, args, dir: outDir, label: `${tool}-${run}`, env });
  const counted = delta(before, await scrapeRequestTotal(kc));
  const record: RunRecord = {
    run,
    wallSeconds: m.wallSeconds,
    peakRssMb: m.peakRssMb,
    exitCode: m.exitCode,
    serverRequests: counted.requests,
    serverRequestsRaw: counted.raw,
    clientRequests: undefined,
    idleBefore,
  };
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
  log(
    `  ${tool} run ${run}: ${record.wallSeconds.toFixed(2)}s, ${record.serverRequests} requests (client: ${record.clientRequests}), ${record.peakRssMb.toFixed(0)} MB, exit ${record.exitCode}${record.drifted ? `, ${record.drifted.length} drifted` : ""}`,
  );
  return record;
}

function summarize(tool: Tool, records: RunRecord[], notes: string[]): ToolResult {
  const drifted = records[0]?.drifted;
  for (const r of records.slice(1)) {
    if (drifted && r.drifted && r.drifted.join("\n") !== drifted.join("\n"))
      notes.push(`run ${r.run} found a different drifted set than run 0`);
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
    drifted,
    notes,
  };
}

async function benchSize(n: number): Promise<SizeResult> {
  const id = runId();
  const tmp = await mkdtemp(join(tmpdir(), `undrift-bench-${n}-`));
  const entry: { repo?: BenchRepo; tmp: string } = { tmp };
  pending.add(entry);
  let result: SizeResult;
  let left: number | undefined;
  try {
    // Two cores share the API server, etcd and the client: say when something else was busy too.
    const load = loadavg()[0]!;
    if (load > 1) log(`N = ${n}: the 1-minute load average is ${load.toFixed(1)}; timings will be noisy`);
    log(`N = ${n}: generating the repository in ${tmp}`);
    const repo = await generateRepo({ dir: join(tmp, "repo"), n, id });
    entry.repo = repo;
    const outDir = join(tmp, "out");
    mkdirSync(outDir);

    log(`N = ${n}: server-side applying ${repo.objects.length + repo.namespaces.length} objects (untimed)`);
    const applyStarted = performance.now();
    await applyAll(admin, repo);
    const applySeconds = (performance.now() - applyStarted) / 1000;

    const count = Math.max(1, Math.round(n / 100));
    log(`N = ${n}: drifting ${count} objects with kubectl`);
    const injected = await injectDrift({ objects: repo.objects, count, kubeconfig });

    if (setupOnly) {
      pending.delete(entry);
      const { command, args } = toolCommand("undrift", repo);
      writeFileSync(join(tmp, "injected.json"), `${JSON.stringify(injected, null, 2)}\n`);
      console.log(`repo: ${repo.dir}\ntarget: ${repo.target}\ninjected: ${join(tmp, "injected.json")}`);
      console.log(`scan: ${[command, ...args].join(" ")}`);
      console.log(
        `clean up: kubectl delete cm,svc,deploy -A -l undrift.dev/target=${repo.target} && kubectl delete ns -l undrift.dev/target=${repo.target} --wait=false && rm -rf ${tmp}`,
      );
      process.exit(0);
    }
    const records: Record<Tool, RunRecord[]> = { undrift: [], kubectl: [], floor: [] };
    const notes: Record<Tool, string[]> = { undrift: [], kubectl: [], floor: [] };
    for (let run = 0; run < runs; run++) {
      for (const tool of ["floor", "undrift", "kubectl"] as const) {
        const first = records.kubectl[0];
        if (tool === "kubectl" && first && first.wallSeconds > kubectlRepeatLimit) {
          if (run === 1)
            notes.kubectl.push(
              `ran once: its first run took ${first.wallSeconds.toFixed(0)}s (> ${kubectlRepeatLimit}s)`,
            );
          continue;
        }
        records[tool].push(await timeOnce(tool, repo, outDir, run));
      }
    }
    let cpuProfile: string | undefined;
    if (profile) {
      const dir = join(resultsDir, `profile-${stamp}-${n}`);
      const { command, args } = toolCommand("undrift", repo);
      await measure({ command, args: ["--cpu-prof", `--cpu-prof-dir=${dir}`, ...args], dir: outDir, label: "profile" });
      const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
      if (file) {
        cpuProfile = formatProfile(summarizeProfile(join(dir, file)));
        log(`N = ${n}: ${cpuProfile.replace(/\n/g, "\nbench: ")}`);
        log(`N = ${n}: profile kept in ${dir}`);
      }
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
    result = {
      n,
      loadAverageBefore: load,
      objects: repo.objects.length + repo.namespaces.length,
      target: repo.target,
      namespaces: repo.namespaces,
      applySeconds,
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
        {
          name: ">= 10x faster than kubectl diff",
          met: ratios.kubectlOverUndriftTime >= 10,
          value: `${ratios.kubectlOverUndriftTime.toFixed(2)}x`,
        },
        {
          name: ">= 50x fewer requests than kubectl diff",
          met: ratios.kubectlOverUndriftRequests >= 50,
          value: `${ratios.kubectlOverUndriftRequests.toFixed(1)}x`,
        },
        {
          name: "within 1.5x of the floor",
          met: ratios.undriftOverFloorTime <= 1.5,
          value: `${ratios.undriftOverFloorTime.toFixed(2)}x`,
        },
        { name: "< 250 MB peak memory", met: u.peakRssMb < 250, value: `${u.peakRssMb.toFixed(0)} MB` },
      ],
    };
  } finally {
    log(`N = ${n}: cleaning up`);
    left = await cleanup(entry);
    if (left) log(`N = ${n}: ${left} objects are still there after cleanup`);
  }
  result.leftAfterCleanup = left;
  return result;
}

const results: SizeResult[] = [];
for (const n of sizes) results.push(await benchSize(n));

const table = markdown(results);
console.log(table);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `scan-${stamp}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, runs, results, table }, null, 2)}\n`,
);
log(`results written to ${file}`);
