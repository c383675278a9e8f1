// BENCH_ONLY=watch npm run bench: the worker's two ways to answer a scheduled
// scan, side by side, in this process, on T targets of K ConfigMaps each:
//   LIST path:  every target's scan on a session of its own (discovery from the disk cache, a LIST per kind);
//   watch path: every scan on a session answered from one WatchCache of the cluster.
// Measured per path: API server requests per idle cycle (every target scanned once, nothing changed), by verb,
// from the kube-apiserver's own apiserver_request_total (the shared cluster's other users included: see
// `client` for this process's own count); wall time of a full cycle after a change to 1% of the objects; and,
// for the watch path, detection latency from a PATCH to a scan of its target that reports it (p50/p95 over
// E edits: the time to the watch's event plus one scan; the LIST path's is the schedule's, half of it on
// average); the heap the watches' cache holds (a full collection before the watch path starts, less one once its
// cache is full, so bytes per tracked object); and peak RSS, the whole process's and the watch path's own (reset
// when it starts; the LIST path's sessions are gone by then). GitHub is not part of it: bench/watch-app.bench.ts
// runs the app's worker, GitHub requests and the check run included.
//
// The LIST path costs the same per scan whatever the number of targets (every scan LISTs every served kind by
// its own selector), and at 1,000 targets a cycle of it takes the better part of an hour on 2 cores:
// BENCH_WATCH_LIST_TARGETS scans only the first L targets on it, and its per-cycle figures are those of L
// scans times T/L, marked as scaled in the results; BENCH_WATCH_LIST_TARGETS=0 skips the LIST path.
//
//   BENCH_WATCH_TARGETS=1000 BENCH_WATCH_OBJECTS=20 BENCH_WATCH_EDITS=50 BENCH_WATCH_CONCURRENCY=4
//   BENCH_WATCH_LIST_TARGETS=100
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ProbotOctokit } from "probot";
import { loadConfig, readRepoConfig } from "../src/config/load-config.ts";
import { ClusterSession } from "../src/live/cluster-session.ts";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { mapLimit } from "../src/live/map-limit.ts";
import { WatchCache } from "../src/live/watch-cache.ts";
import { runScan } from "../src/stages/scan/scan-target.ts";
import { readSnapshotConfig } from "../src/worker/read-snapshot-config.ts";
import { scrapeRequestsByVerb } from "./lib/kube.ts";
import { percentile } from "./lib/measure.ts";
import { clusterKubeconfig, log, timestamp, writeResults } from "./lib/settings.ts";
import { applyWatchObjects, watchTargets, writeWatchRepo } from "./lib/watch-targets.ts";
import { closeWorkspace, openWorkspace } from "./lib/workspace.ts";

const targets = Number(process.env.BENCH_WATCH_TARGETS ?? 1000);
const perTarget = Number(process.env.BENCH_WATCH_OBJECTS ?? 20);
const edits = Number(process.env.BENCH_WATCH_EDITS ?? 50);
const concurrency = Number(process.env.BENCH_WATCH_CONCURRENCY ?? 4);
const listTargets = Math.min(targets, Number(process.env.BENCH_WATCH_LIST_TARGETS ?? targets));

const kubeconfig = await clusterKubeconfig();
const kc = loadKubeconfig({ kubeconfig });
const admin = new KubeClient(kc);
const w = watchTargets({ targets, perTarget, prefix: "bench-watch" });
const { namespace, targetName, cmName, all } = w;

// Bytes per tracked object: the heap after a full collection once the watches hold every object, less the heap
// after one before the watch path began (the repository, its config and the objects' names were held by then).
// --expose-gc set at run time gives a fresh context its gc(); the bench is
// not started with flags.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const settledHeap = () => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};

let peakRss = 0;
let watchPeakRss = 0;
const sampler = setInterval(() => {
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  watchPeakRss = Math.max(watchPeakRss, rss);
}, 100);

const dir = await mkdtemp(join(tmpdir(), "undrift-bench-watch-"));
// Ctrl-C too removes the namespace and its 20,000 ConfigMaps (bench/lib/workspace.ts's one handler).
const workspace = openWorkspace(dir, admin);
try {
  // 1. The repository (one plain target per folder) and its objects, applied as an applier would.
  log(`watch: ${targets} targets × ${perTarget} ConfigMaps in ${namespace}`);
  await writeWatchRepo(w, dir, "bench");
  // Read once and handed to every scan, with the revision, as the app's worker hands a job's scan the config of
  // the snapshot and its commit: a scan per target that reads the 1,000-target config again and starts git to
  // name the revision (the CLI's way, for one run) cost more per scan than the watch path's whole scan here.
  const scanned = { config: await readRepoConfig(dir), revision: "bench" };
  await applyWatchObjects(w, admin, workspace);

  const scanAll = async (session: () => ClusterSession, count: number) => {
    let requests = 0;
    let drifted = 0;
    const started = performance.now();
    await mapLimit(
      Array.from({ length: count }, (_, t) => t),
      concurrency,
      async (t) => {
        const s = session();
        const before = s.client.requests;
        const { report } = await runScan({
          ...scanned,
          repoDir: dir,
          targetName: targetName(t),
          kubeConfig: kc,
          session: s,
        });
        requests += s.client.requests - before;
        drifted += report.summary.drifted;
      },
    );
    return { wallMs: Math.round(performance.now() - started), requests, drifted };
  };
  const cycle = async (name: string, session: () => ClusterSession, count = targets) => {
    const before = await scrapeRequestsByVerb(kc);
    const result = await scanAll(session, count);
    const after = await scrapeRequestsByVerb(kc);
    const byVerb = Object.fromEntries(
      Object.keys(after)
        .map((verb) => [verb, (after[verb] ?? 0) - (before[verb] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    log(
      `watch: ${name}: ${result.wallMs} ms, ${result.requests} requests by this process, apiserver ${JSON.stringify(byVerb)}`,
    );
    if (count === targets) return { ...result, scanned: count, apiserver: byVerb };
    // Scaled to a cycle of every target: the sample's cost times targets / count.
    const scale = (n: number) => Math.round((n * targets) / count);
    return {
      scanned: count,
      scaledTo: targets,
      wallMs: scale(result.wallMs),
      requests: scale(result.requests),
      drifted: result.drifted,
      apiserver: Object.fromEntries(Object.entries(byVerb).map(([verb, n]) => [verb, scale(n)])),
    };
  };
  const changeOnePercent = async (value: string) => {
    const count = Math.max(1, Math.round(all.length / 100));
    await mapLimit(
      all.slice(0, count * 97).filter((_, n) => n % 97 === 0),
      8,
      ([t, i]) =>
        admin.send({
          method: "PATCH",
          path: `/api/v1/namespaces/${namespace}/configmaps/${cmName(t!, i!)}`,
          contentType: "application/merge-patch+json",
          body: { data: { LOG_LEVEL: value } },
        }),
    );
    return count;
  };

  // 2. The LIST path: a session per scan, as scans spread over the schedule get.
  const listSession = () => new ClusterSession(kc, { shareLists: true });
  const list =
    listTargets === 0
      ? undefined
      : {
          idle: await cycle(`LIST path, idle cycle (${listTargets} targets)`, listSession, listTargets),
          afterChange: await changeOnePercent("debug").then((changed) =>
            cycle(`LIST path, cycle after ${changed} changes (${listTargets} targets)`, listSession, listTargets),
          ),
        };

  // 3. The watch path: one cache; a first cycle fills it, then an idle one and one after a change.
  const heapBefore = settledHeap();
  const watchRssBefore = process.memoryUsage().rss;
  watchPeakRss = watchRssBefore;
  let onEvent: ((name: string) => void) | undefined;
  const cache = new WatchCache({ kubeConfig: kc, onChange: ({ object }) => onEvent?.(object.metadata.name) });
  const watchSession = () => new ClusterSession(kc, { shareLists: true, watches: cache });
  const warm = await cycle("watch path, first cycle (the watches' LISTs)", watchSession);
  const held = cache.stats();
  // The sessions of the cycle are gone; what stays is the cache (its objects, and the dry-run answers it keeps).
  const heapWithCache = settledHeap();
  const watchIdle = await cycle("watch path, idle cycle", watchSession);
  const changed = await changeOnePercent("warn");
  const watchChanged = await cycle(`watch path, cycle after ${changed} changes`, watchSession);

  // 4. Detection latency on the watch path: a PATCH, its event, and a scan of its target that reports it.
  const latencies: number[] = [];
  for (let e = 0; e < edits; e++) {
    const t = (e * 7) % targets;
    const name = cmName(t, e % perTarget);
    const heard = new Promise<void>((resolve) => {
      onEvent = (n) => n === name && resolve();
    });
    const started = performance.now();
    await admin.send({
      method: "PATCH",
      path: `/api/v1/namespaces/${namespace}/configmaps/${name}`,
      contentType: "application/merge-patch+json",
      body: { data: { LOG_LEVEL: `edit-${e}` } },
    });
    await heard;
    const { report } = await runScan({
      ...scanned,
      repoDir: dir,
      targetName: targetName(t),
      kubeConfig: kc,
      session: watchSession(),
    });
    if (!report.resources.some((r) => r.name === name && r.status === "drifted"))
      throw new Error(`${name}: not reported`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const answersKept = cache.dryRuns.size;
  cache.stop();
  onEvent = undefined;
  const watchRss = { beforeMB: Math.round(watchRssBefore / 2 ** 20), peakMB: Math.round(watchPeakRss / 2 ** 20) };
  const heapHeld = heapWithCache - heapBefore;
  log(
    `watch: ${held.objects} objects held in ${held.watches} watches, ${answersKept} dry-run answers: ` +
      `heap ${Math.round(heapHeld / 2 ** 20)} MB, ${Math.round(heapHeld / Math.max(1, held.objects))} bytes per object; ` +
      `RSS ${watchRss.beforeMB} MB before the watch path, ${watchRss.peakMB} MB at its peak`,
  );

  // 5. The app's worker reads each job's config from the job's snapshot (readSnapshotConfig), which the scans
  // above were handed: a cycle's T reads of the same T-target file, parsed once and shared frozen, beside
  // what T parses of it cost (L of them timed, times T/L, as the LIST path is).
  const readConfig = () =>
    readSnapshotConfig({
      dir,
      octokit: undefined as unknown as ProbotOctokit, // a file that extends nothing never reaches GitHub
      owner: "bench",
      repo: "watch",
      sha: "bench",
      lastValid: async () => undefined,
    });
  let began = performance.now();
  for (let t = 0; t < targets; t++) await readConfig();
  const configReadsMs = Math.round(performance.now() - began);
  const text = await readFile(join(dir, ".github/undrift.yml"), "utf8");
  began = performance.now();
  const parses = listTargets || Math.min(targets, 50);
  for (let t = 0; t < parses; t++) loadConfig(text);
  const configParsesMs = Math.round(((performance.now() - began) * targets) / parses);
  log(`watch: the config read by ${targets} jobs: ${configReadsMs} ms; parsed by each: ${configParsesMs} ms`);

  const results = {
    targets,
    objectsPerTarget: perTarget,
    ...(list ? { list } : {}),
    watch: {
      first: warm,
      idle: watchIdle,
      afterChange: watchChanged,
      detectionMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), edits: latencies.length },
      trackedObjects: held.objects,
      watches: held.watches,
      dryRunAnswersKept: answersKept,
      heapHeldBytes: heapHeld,
      bytesPerTrackedObject: Math.round(heapHeld / Math.max(1, held.objects)),
      rss: watchRss,
    },
    configPerCycle: { readsMs: configReadsMs, parsedByEachMs: configParsesMs, scaledFrom: parses },
    peakRssMB: Math.round(peakRss / 2 ** 20),
  };
  console.log(JSON.stringify(results, null, 2));
  writeResults({ name: "watch", stamp: timestamp(), results, table: "" });
} finally {
  clearInterval(sampler);
  await closeWorkspace(workspace);
}
