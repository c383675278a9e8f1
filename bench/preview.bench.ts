// npm run bench (or BENCH_ONLY=preview npm run bench): `undrift preview` of a
// pull request against `kubectl diff --server-side` of its head, on N generated
// objects. The same settings as the scan benchmark (bench/lib/settings.ts):
//
//   BENCH_SIZES=1000 BENCH_RUNS=3 BENCH_KUBECTL_REPEAT_LIMIT=120
//   BENCH_KUBECONFIG=FILE BENCH_QUIET_WAIT=60 BENCH_KEEP=1
//   BENCH_PROFILE=1   one more, untimed, undrift preview under --cpu-prof; prints where
//                     its main thread's time goes, keeps the profile in bench/results/
//
// Per N:
//   1. generate the repository (its target has `prune: true`), commit it as
//      `main`, server-side apply it (untimed) and drift 1% with kubectl, so the
//      cluster already differs from base;
//   2. commit head on a branch: 1% of the objects changed, 1% added, 1% deleted;
//   3. time each tool as its own process (wall time, peak RSS, API requests):
//      `undrift preview --base main --head <branch> --output json`, and what a
//      reviewer runs by hand, `kubectl diff --server-side -f` of head's folder;
//   4. check what each found against what head and the drift made;
//   5. print a markdown table, write bench/results/preview-<time>.json, and
//      delete what it created (unless BENCH_KEEP=1).
import { mkdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { kubectlDiffCommand, undriftCommand } from "./lib/commands.ts";
import type { BenchRepo } from "./lib/generate.ts";
import { baseBranch, commitBase, commitHead, headBranch } from "./lib/head-change.ts";
import { countKubectlRequests, readKubectlDiffActions, readUndriftPreview, tail } from "./lib/outputs.ts";
import {
  checkPreview,
  type PreviewRunRecord,
  type PreviewSizeResult,
  type PreviewTool,
  previewMarkdown,
} from "./lib/preview-report.ts";
import { profileUndrift } from "./lib/profile.ts";
import {
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
import { closeWorkspace, openWorkspace } from "./lib/workspace.ts";

const profile = process.env.BENCH_PROFILE === "1";
const stamp = timestamp();
const kubeconfig = await clusterKubeconfig();
const kc = loadKubeconfig({ kubeconfig });
const admin = new KubeClient(kc);

// The timed tools reach the cluster through `timedKubeconfig` (a latency proxy above 0 ms); set-up and counting
// use `kubeconfig`.
function toolCommand(tool: PreviewTool, repo: BenchRepo, timedKubeconfig: string) {
  if (tool === "kubectl") return kubectlDiffCommand({ dir: repo.manifestsDir, kubeconfig: timedKubeconfig });
  return undriftCommand([
    ...["preview", "--repo", repo.dir, "--base", baseBranch, "--head", headBranch],
    ...["--target", repo.target, "--kubeconfig", timedKubeconfig, "--output", "json"],
  ]);
}

async function timeOnce(
  tool: PreviewTool,
  repo: BenchRepo,
  outDir: string,
  run: number,
  at: TimedCluster,
): Promise<PreviewRunRecord> {
  const label = `preview-${tool}-${at.rttMs}ms-${run}`;
  const m = await timedRun({ ...toolCommand(tool, repo, at.kubeconfig), dir: outDir, label, kc });
  const record: PreviewRunRecord = runRecord(run, m);
  if (tool === "undrift") {
    // 1: the merge changes something, as head does here.
    if (m.exitCode !== 1) throw new Error(`undrift preview exited ${m.exitCode}: ${tail(m.stderrFile)}`);
    record.preview = readUndriftPreview(m.stdoutFile);
    const p = record.preview;
    logRun(tool, record, `${p.change.length} change, ${p.create.length} create, ${p.prune.length} prune`);
  } else {
    if (m.exitCode !== 1) throw new Error(`kubectl diff exited ${m.exitCode}: ${tail(m.stderrFile)}`);
    const diffs = readKubectlDiffActions(m.stdoutFile);
    const keys = (created: boolean) => diffs.filter((d) => d.created === created).map((d) => d.key);
    record.kubectl = { change: keys(false).sort(), create: keys(true).sort() };
    record.clientRequests = countKubectlRequests(m.stderrFile);
    logRun(tool, record, `${record.kubectl.change.length} change, ${record.kubectl.create.length} create`);
  }
  return record;
}

/** Every set a run found, one line each, for the check that all runs agree. */
function foundLines(r: PreviewRunRecord): string[] | undefined {
  if (r.preview) {
    const { change, create, prune, driftNow } = r.preview;
    return Object.entries({ change, create, prune, driftNow }).flatMap(([set, keys]) => keys.map((k) => `${set} ${k}`));
  }
  return r.kubectl && [...r.kubectl.change.map((k) => `change ${k}`), ...r.kubectl.create.map((k) => `create ${k}`)];
}

async function benchSize(n: number): Promise<PreviewSizeResult[]> {
  const tmp = await mkdtemp(join(tmpdir(), `undrift-bench-preview-${n}-`));
  const workspace = openWorkspace(tmp, admin);
  const results: PreviewSizeResult[] = [];
  let left: number | undefined;
  try {
    const load = loadavg()[0]!;
    if (load > 1) log(`N = ${n}: the 1-minute load average is ${load.toFixed(1)}; timings will be noisy`);
    const { repo, applySeconds, injected } = await setupRepo({
      workspace,
      n,
      kubeconfig,
      admin,
      prune: true,
      beforeApply: commitBase,
    });
    const count = Math.max(1, Math.round(n / 100));
    log(`N = ${n}: committing head on ${headBranch}: ${count} objects changed, ${count} added, ${count} deleted`);
    const head = await commitHead({ repo, count, avoid: new Set(injected.map((i) => i.key)) });
    const outDir = join(tmp, "out");
    mkdirSync(outDir);

    const prepared: Prepared = { n, load, repo, applySeconds, injected, head, outDir };
    for (const rttMs of roundTrips) results.push(await benchAt(prepared, await timedCluster(kubeconfig, rttMs)));
  } finally {
    log(`N = ${n}: cleaning up`);
    left = await closeWorkspace(workspace);
    if (left) log(`N = ${n}: ${left} objects are still there after cleanup`);
  }
  for (const r of results) r.leftAfterCleanup = left;
  return results;
}

interface Prepared {
  n: number;
  load: number;
  repo: BenchRepo;
  applySeconds: number;
  injected: PreviewSizeResult["injected"];
  head: PreviewSizeResult["head"];
  outDir: string;
}

/** Times both tools on the prepared pull request through `at`, and checks what each found. */
async function benchAt(prepared: Prepared, at: TimedCluster): Promise<PreviewSizeResult> {
  const { n, load, repo, applySeconds, injected, head, outDir } = prepared;
  const records: Record<PreviewTool, PreviewRunRecord[]> = { undrift: [], kubectl: [] };
  const notes: Record<PreviewTool, string[]> = {
    undrift: ["its JSON has no request count (the scan's `stats`), so its requests are the API server's count"],
    kubectl: [],
  };
  for (let run = 0; run < runs; run++) {
    for (const tool of ["undrift", "kubectl"] as const) {
      if (tool === "kubectl" && tooSlowToRepeat(records.kubectl, run, notes.kubectl)) continue;
      records[tool].push(await timeOnce(tool, repo, outDir, run, at));
    }
  }
  let cpuProfile: string | undefined;
  if (profile) {
    const dir = join(resultsDir, `profile-preview-${stamp}-${n}-${at.rttMs}ms`);
    cpuProfile = await profileUndrift({ args: toolCommand("undrift", repo, at.kubeconfig).args, dir, outDir });
    log(`N = ${n}, ${at.label}: ${cpuProfile.replace(/\n/g, "\nbench: ")}`);
    log(`N = ${n}, ${at.label}: profile kept in ${dir}`);
  }
  const options = { found: foundLines, what: "set of objects" };
  const tools = {
    undrift: summarize("undrift", records.undrift, notes.undrift, options),
    kubectl: summarize("kubectl", records.kubectl, notes.kubectl, options),
  };
  const undriftFound = records.undrift[0]!.preview!;
  const kubectlFound = records.kubectl[0]!.kubectl!;
  const checks = checkPreview({ head, injected, undrift: undriftFound, kubectl: kubectlFound });
  return {
    n,
    rttMs: at.rttMs,
    loadAverageBefore: load,
    objects: repo.objects.length + repo.namespaces.length,
    target: repo.target,
    namespaces: repo.namespaces,
    applySeconds,
    injected,
    head,
    tools,
    undriftFound,
    kubectlFound,
    checks,
    cpuProfile,
    ratios: {
      kubectlOverUndriftTime: tools.kubectl.wallSeconds / tools.undrift.wallSeconds,
      kubectlOverUndriftRequests: tools.kubectl.requests / tools.undrift.requests,
    },
  };
}

const results: PreviewSizeResult[] = [];
for (const n of sizes) results.push(...(await benchSize(n)));

const table = previewMarkdown(results);
console.log(table);
writeResults({ name: "preview", stamp, results, table });
if (results.some((r) => r.checks.some((c) => !c.met))) process.exitCode = 1;
