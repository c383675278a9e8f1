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
// The sizes: each BENCH_SIZES object count (the sizes users have: 10, 100, 1,000, 5,000), as targets of at most K
// objects (10 is one target of 10, 5,000 is 250 of 20), then the issue's T × K (BENCH_WATCH_TARGETS=0 leaves it
// out); each at every BENCH_RTT round trip, the scans' clients (the sessions and the cache) reaching the API
// server through the latency proxy, the edits and the metrics not.
//
// The LIST path costs the same per scan whatever the number of targets (every scan LISTs every served kind by
// its own selector), and at 1,000 targets a cycle of it takes the better part of an hour on 2 cores:
// BENCH_WATCH_LIST_TARGETS scans only the first L targets on it, and its per-cycle figures are those of L
// scans times T/L, marked as scaled in the results; BENCH_WATCH_LIST_TARGETS=0 skips the LIST path.
//
//   BENCH_SIZES=10,100,1000,5000 BENCH_WATCH_TARGETS=1000 BENCH_WATCH_OBJECTS=20 BENCH_WATCH_EDITS=50
//   BENCH_WATCH_CONCURRENCY=4 BENCH_WATCH_LIST_TARGETS=100 BENCH_RTT=0,20ms
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ProbotOctokit } from "probot";
import { runScan } from "../src/cli/run-scan.ts";
import { loadConfig, readRepoConfig } from "../src/config/load-config.ts";
import { ClusterSession } from "../src/live/cluster-session.ts";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { mapLimit } from "../src/live/map-limit.ts";
import { WatchCache } from "../src/live/watch-cache.ts";
import { readSnapshotConfig } from "../src/worker/read-snapshot-config.ts";
import { scrapeRequestsByVerb } from "./lib/kube.ts";
import { percentile } from "./lib/measure.ts";
import { fmtInt } from "./lib/report.ts";
import { clusterKubeconfig, log, roundTrips, sizes, timedCluster, timestamp, writeResults } from "./lib/settings.ts";
import {
  applyWatchObjects,
  setLogLevel,
  type WatchTargets,
  watchTargets,
  writeWatchRepo,
} from "./lib/watch-targets.ts";
import { closeWorkspace, openWorkspace } from "./lib/workspace.ts";

const issueTargets = Number(process.env.BENCH_WATCH_TARGETS ?? 1000);
const perTargetMax = Number(process.env.BENCH_WATCH_OBJECTS ?? 20);
const edits = Number(process.env.BENCH_WATCH_EDITS ?? 50);
const concurrency = Number(process.env.BENCH_WATCH_CONCURRENCY ?? 4);
const listLimit = Number(process.env.BENCH_WATCH_LIST_TARGETS ?? Number.POSITIVE_INFINITY);

/** The sizes, smallest first: each BENCH_SIZES count as targets of at most K objects, then the issue's T × K. */
const cases = [
  ...sizes.map((n) => ({ targets: Math.ceil(n / Math.min(perTargetMax, n)), perTarget: Math.min(perTargetMax, n) })),
  ...(issueTargets > 0 ? [{ targets: issueTargets, perTarget: perTargetMax }] : []),
].filter((c, i, all) => all.findIndex((d) => d.targets * d.perTarget === c.targets * c.perTarget) === i);

const kubeconfig = await clusterKubeconfig();
const kc = loadKubeconfig({ kubeconfig });
const admin = new KubeClient(kc);

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

/** setLogLevel, remembering in `edited` what is no longer Git's value, to set it back. */
const edit = (w: WatchTargets, edited: Set<string>, [t, i]: [number, number], value: string) => {
  if (value !== "info") edited.add(`${t},${i}`);
  return setLogLevel(admin, w, t, i, value);
};

/** Both paths on the objects of `w`, every scan's client at `rttMs` round trip; the objects are left as found. */
async function measure(w: WatchTargets, dir: string, rttMs: number) {
  const { targetName, cmName, all, targets } = w;
  const timed = await timedCluster(kubeconfig, rttMs);
  const scanKc = loadKubeconfig({ kubeconfig: timed.kubeconfig });
  const at = `${fmtInt(all.length)} objects, ${timed.label}`;
  const listTargets = Math.min(targets, listLimit);
  const edited = new Set<string>();
  // Read once and handed to every scan, with the revision, as the app's worker hands a job's scan the config of
  // the snapshot and its commit: a scan per target that reads the 1,000-target config again and starts git to
  // name the revision (the CLI's way, for one run) cost more per scan than the watch path's whole scan here.
  const scanned = { config: await readRepoConfig(dir), revision: "bench" };

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
          kubeConfig: scanKc,
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
      `watch (${at}): ${name}: ${result.wallMs} ms, ${result.requests} requests by this process, apiserver ${JSON.stringify(byVerb)}`,
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
  /** Sets every object edited so far back to Git's value. */
  const undo = async () => {
    await mapLimit([...edited], 8, (key) => edit(w, edited, key.split(",").map(Number) as [number, number], "info"));
    edited.clear();
  };
  /** 1% of the objects (at least one), spread: every 97th; `from` shifts which, so each change is new drift. */
  const changeOnePercent = async (value: string, from: number) => {
    const count = Math.max(1, Math.round(all.length / 100));
    const picked = Array.from({ length: count }, (_, n) => all[(from + n * 97) % all.length]!);
    await mapLimit(picked, 8, (object) => edit(w, edited, object, value));
    return count;
  };

  // 1. The LIST path: a session per scan, as scans spread over the schedule get.
  const listSession = () => new ClusterSession(scanKc, { shareLists: true });
  const list =
    listTargets === 0
      ? undefined
      : {
          idle: await cycle(`LIST path, idle cycle (${listTargets} targets)`, listSession, listTargets),
          afterChange: await changeOnePercent("debug", 0).then((changed) =>
            cycle(`LIST path, cycle after ${changed} changes (${listTargets} targets)`, listSession, listTargets),
          ),
        };
  // The watch path starts from the same state: the LIST path's change undone.
  await undo();

  // 2. The watch path: one cache; a first cycle fills it, then an idle one and one after a change.
  const heapBefore = settledHeap();
  const watchRssBefore = process.memoryUsage().rss;
  watchPeakRss = watchRssBefore;
  let onEvent: ((name: string) => void) | undefined;
  const cache = new WatchCache({ kubeConfig: scanKc, onChange: ({ object }) => onEvent?.(object.metadata.name) });
  const watchSession = () => new ClusterSession(scanKc, { shareLists: true, watches: cache });
  const warm = await cycle("watch path, first cycle (the watches' LISTs)", watchSession);
  const held = cache.stats();
  // The sessions of the cycle are gone; what stays is the cache (its objects, and the dry-run answers it keeps).
  const heapWithCache = settledHeap();
  const watchIdle = await cycle("watch path, idle cycle", watchSession);
  const changed = await changeOnePercent("warn", 1);
  const watchChanged = await cycle(`watch path, cycle after ${changed} changes`, watchSession);

  // 3. Detection latency on the watch path: a PATCH, its event, and a scan of its target that reports it.
  const latencies: number[] = [];
  for (let e = 0; e < edits; e++) {
    const t = (e * 7) % targets;
    const name = cmName(t, e % w.perTarget);
    const heard = new Promise<void>((resolve) => {
      onEvent = (n) => n === name && resolve();
    });
    const started = performance.now();
    await edit(w, edited, [t, e % w.perTarget], `edit-${e}`);
    await heard;
    const { report } = await runScan({
      ...scanned,
      repoDir: dir,
      targetName: targetName(t),
      kubeConfig: scanKc,
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
    `watch (${at}): ${held.objects} objects held in ${held.watches} watches, ${answersKept} dry-run answers: ` +
      `heap ${Math.round(heapHeld / 2 ** 20)} MB, ${Math.round(heapHeld / Math.max(1, held.objects))} bytes per object; ` +
      `RSS ${watchRss.beforeMB} MB before the watch path, ${watchRss.peakMB} MB at its peak`,
  );
  // The next round trip starts from Git's state again.
  await undo();

  // 4. The app's worker reads each job's config from the job's snapshot (readSnapshotConfig), which the scans
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
  const parses = Math.min(targets, listTargets || 50);
  for (let t = 0; t < parses; t++) loadConfig(text);
  const configParsesMs = Math.round(((performance.now() - began) * targets) / parses);
  log(`watch (${at}): the config read by ${targets} jobs: ${configReadsMs} ms; parsed by each: ${configParsesMs} ms`);

  return {
    objects: all.length,
    targets,
    objectsPerTarget: w.perTarget,
    rtt: timed.label,
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
  };
}

type Measured = Awaited<ReturnType<typeof measure>>;

/** One row per size and round trip: the LIST path's figures beside the watch path's. */
function table(rows: Measured[]): string {
  const verbs = (counts: Record<string, number> | undefined) =>
    `${fmtInt(counts?.LIST ?? 0)} / ${fmtInt(counts?.GET ?? 0)}`;
  const seconds = (ms: number | undefined) => (ms === undefined ? "–" : `${(ms / 1000).toFixed(1)} s`);
  const lines = [
    "| objects (targets × each) | round trip | LIST / GET idle: LIST path, watch path | idle cycle: LIST path, watch path | after 1%: LIST path, watch path | detection p50 / p95 (watch) | heap the cache holds |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const scaled = r.list?.idle.scaledTo ? ` (${r.list.idle.scanned} scanned, scaled)` : "";
    lines.push(
      `| ${fmtInt(r.objects)} (${fmtInt(r.targets)} × ${r.objectsPerTarget}) | ${r.rtt} | ` +
        `${r.list ? verbs(r.list.idle.apiserver) : "–"}${scaled}, ${verbs(r.watch.idle.apiserver)} | ` +
        `${seconds(r.list?.idle.wallMs)}, ${seconds(r.watch.idle.wallMs)} | ` +
        `${seconds(r.list?.afterChange.wallMs)}, ${seconds(r.watch.afterChange.wallMs)} | ` +
        `${Math.round(r.watch.detectionMs.p50)} / ${Math.round(r.watch.detectionMs.p95)} ms | ` +
        // The heap, not bytes per object: at 10 objects the watches' own state (about 4 MB) is all of it. Not RSS:
        // the sizes run in one process, each after the others' garbage (bench/watch-app.bench.ts has the worker's).
        `${(r.watch.heapHeldBytes / 2 ** 20).toFixed(1)} MB |`,
    );
  }
  return lines.join("\n");
}

const rows: Measured[] = [];
try {
  for (const size of cases) {
    const w = watchTargets({ ...size, prefix: "bench-watch" });
    const dir = await mkdtemp(join(tmpdir(), "undrift-bench-watch-"));
    // Ctrl-C too removes the namespace and its ConfigMaps (bench/lib/workspace.ts's one handler). Each size's
    // objects are gone before the next size's are made: the watches select by the tracking label's key.
    const workspace = openWorkspace(dir, admin);
    try {
      // The repository (one plain target per folder) and its objects, applied as an applier would.
      log(`watch: ${w.targets} targets × ${w.perTarget} ConfigMaps in ${w.namespace}`);
      await writeWatchRepo(w, dir, "bench");
      await applyWatchObjects(w, admin, workspace);
      for (const rttMs of roundTrips) rows.push(await measure(w, dir, rttMs));
    } finally {
      await closeWorkspace(workspace);
    }
  }
} finally {
  clearInterval(sampler);
}
const results = { sizes: rows, peakRssMB: Math.round(peakRss / 2 ** 20) };
const summary = table(rows);
console.log(JSON.stringify(results, null, 2));
console.log(summary);
writeResults({ name: "watch", stamp: timestamp(), results, table: summary });
