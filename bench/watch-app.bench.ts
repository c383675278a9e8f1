// BENCH_ONLY=watch-app npm run bench: the app's worker on T targets of K ConfigMaps, as `undrift worker` runs it
// (test/helpers/app-worker-child.ts: a process of its own, holding the cluster's watch lease, answering scans from
// its watches), with GitHub the OpenAPI-checked mock behind a loopback relay, every request declared with its
// exact count. bench/run.ts starts it through vitest (bench/vitest.config.ts), which the mock needs. Measured:
//   - a scheduled cycle (every target queued at once, reason `schedule`): the first, then two idle ones, their wall
//     time and GitHub requests by operation and status (the second idle cycle is the steady state: every ETag the
//     first one got back is current). The first round trip's first cycle creates every target's check run (an
//     installation's first cycle); each later round trip's worker starts on a repository whose check runs exist
//     and are current (a restarted worker), and the edits of the run before are undone first;
//   - detection latency from a `kubectl patch` to the PATCH of its target's check run reaching GitHub (p50/p95 over
//     E edits, one at a time: the watch event, the 2 s debounce, the queue, the scan and the GitHub writes);
//   - a change to 1% of the objects at once, one object in each of as many targets: from the first write to the
//     last of those targets' check runs updated (each one a tracking issue created and a check run updated);
//   - the worker process's RSS (VmRSS, and VmHWM for its peak, from /proc) after start, after each cycle and at
//     the end.
// At each BENCH_RTT round trip (default 0 and 20 ms): the worker reaches the API server through a latency proxy;
// kubectl, the person making the edit, does not.
//
// The worker runs under the memory limit the chart gives it (charts/undrift/values.yaml, worker.resources.limits),
// in a cgroup of its own (test/helpers/memory-cgroup.ts), because Node sizes V8's heap from that limit:
// BENCH_WATCH_APP_MEMORY_LIMIT=none runs it without one, as no pod does; where no cgroup can be made, the results
// say so.
//
//   BENCH_WATCH_APP_TARGETS=1000 BENCH_WATCH_APP_OBJECTS=20 BENCH_WATCH_APP_EDITS=50 BENCH_RTT=0,20ms
//   BENCH_WATCH_APP_MEMORY_LIMIT=512Mi
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { KubeClient } from "../src/live/kube-client.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";
import { mapLimit } from "../src/live/map-limit.ts";
import { enqueueScan } from "../src/queue/enqueue-scan.ts";
import { type FakeCheckRun, fakeRepo } from "../test/helpers/app-github.ts";
import { commitRepo } from "../test/helpers/app-harness.ts";
import { type AppWorkerProcess, startAppWorkerProcess } from "../test/helpers/app-worker-process.ts";
import { kubeconfigPath, kubectl } from "../test/helpers/cluster.ts";
import { type LoggedRequest, useGitHubMock } from "../test/helpers/github-mock.ts";
import { startGitHubRelay } from "../test/helpers/github-relay.ts";
import { memoryCgroup, quantityBytes } from "../test/helpers/memory-cgroup.ts";
import { openTestRedis, waitFor } from "../test/helpers/redis.ts";
import { percentile } from "./lib/measure.ts";
import {
  closeTimedCluster,
  log,
  projectDir,
  roundTrips,
  timedCluster,
  timestamp,
  writeResults,
} from "./lib/settings.ts";
import {
  applyWatchObjects,
  setLogLevel,
  type WatchTargets,
  watchTargets,
  writeWatchRepo,
} from "./lib/watch-targets.ts";
import { closeWorkspace, openWorkspace } from "./lib/workspace.ts";

const targets = Number(process.env.BENCH_WATCH_APP_TARGETS ?? 1000);
const perTarget = Number(process.env.BENCH_WATCH_APP_OBJECTS ?? 20);
const edits = Math.min(targets, Number(process.env.BENCH_WATCH_APP_EDITS ?? 50));
const CLUSTER = "bench";
/** The chart's memory limit for a worker, unless BENCH_WATCH_APP_MEMORY_LIMIT says another (or `none`). */
const chartLimit = (
  parse(await readFile(join(projectDir, "charts/undrift/values.yaml"), "utf8")) as {
    worker: { resources: { limits: { memory: string } } };
  }
).worker.resources.limits.memory;
const memoryLimit = process.env.BENCH_WATCH_APP_MEMORY_LIMIT ?? chartLimit;

const github = useGitHubMock();

/** The child's resident set now and at its peak, in MB, from /proc (Linux). */
async function rssOf(pid: number): Promise<{ rssMB: number; peakMB: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMB: Math.round(kb("VmRSS") / 1024), peakMB: Math.round(kb("VmHWM") / 1024) };
}

/** Target t's check run in the mock's state, which every cycle after the first finds. */
function checkRunOf(runs: readonly FakeCheckRun[], w: WatchTargets, t: number): FakeCheckRun {
  const name = `undrift/${w.targetName(t)}`;
  const run = runs.find((r) => r.name === name);
  if (!run) throw new Error(`${name}: no check run after the first cycle`);
  return run;
}

/** GitHub requests by operation and status: `checks/list-for-ref 304` → count. */
function byOperation(requests: readonly LoggedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const key = `${r.operationId ?? `${r.method} ${r.origin}${r.path}`} ${r.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

it(`the app's worker on ${targets} targets × ${perTarget} ConfigMaps`, { timeout: 4 * 3600_000 }, async () => {
  const loopback = kubeconfigPath();
  const admin = new KubeClient(loadKubeconfig({ kubeconfig: loopback }));
  const w = watchTargets({ targets, perTarget, prefix: "bench-watch-app" });
  const dir = await mkdtemp(join(tmpdir(), "undrift-bench-watch-app-"));
  const workspace = openWorkspace(dir, admin);
  const runs: unknown[] = [];
  const cgroup = memoryLimit === "none" ? undefined : await memoryCgroup(quantityBytes(memoryLimit));
  const limitLabel = !cgroup ? "none" : "procs" in cgroup ? cgroup.label : `none: ${cgroup.unavailable}`;
  log(`watch-app: the worker's memory limit: ${limitLabel}`);
  try {
    log(`watch-app: ${targets} targets × ${perTarget} ConfigMaps in ${w.namespace}`);
    await writeWatchRepo(w, join(dir, "repo"), CLUSTER);
    const commit = await commitRepo(join(dir, "repo"));
    await applyWatchObjects(w, admin, workspace);

    let checkRuns: FakeCheckRun[] | undefined;
    for (const rttMs of roundTrips) {
      const run = await measure({
        rttMs,
        dir,
        commit,
        w,
        checkRuns,
        admin,
        ...(cgroup && "procs" in cgroup ? { cgroupProcs: cgroup.procs } : {}),
      });
      const problems = await github.verify();
      expect(problems, problems.join("\n")).toEqual([]);
      runs.push(run.results);
      checkRuns = run.settledCheckRuns;
      // The next worker starts on a cluster in sync with Git, as the check runs kept say it is.
      await mapLimit(run.edited, 8, ([t, i]) => setLogLevel(admin, w, t, i, "info"));
    }
  } finally {
    await closeWorkspace(workspace);
    await closeTimedCluster();
    if (cgroup && "procs" in cgroup) await cgroup.remove();
  }
  const results = { targets, objectsPerTarget: perTarget, memoryLimit: limitLabel, runs };
  console.log(JSON.stringify(results, null, 2));
  writeResults({ name: "watch-app", stamp: timestamp(), results, table: "" });
});

async function measure(params: {
  rttMs: number;
  dir: string;
  commit: Awaited<ReturnType<typeof commitRepo>>;
  w: WatchTargets;
  /** The check runs an earlier worker left, all current: this worker's first cycle writes nothing. */
  checkRuns: FakeCheckRun[] | undefined;
  /** Makes the 1% change (kubectl for each of hundreds of objects would time its own start-ups). */
  admin: KubeClient;
  /** The worker's memory cgroup, entered before it starts. */
  cgroupProcs?: string;
}) {
  const { w, commit, admin } = params;
  const timed = await timedCluster(kubeconfigPath(), params.rttMs);
  const redis = await openTestRedis();
  const scratch = join(params.dir, `rtt-${params.rttMs}`);
  const registryFile = join(params.dir, `clusters-${params.rttMs}.yaml`);
  await writeFile(
    registryFile,
    stringify({ clusters: { [CLUSTER]: { kubeconfig: timed.kubeconfig, repositories: ["acme/gitops"] } } }),
  );
  const relay = await startGitHubRelay();
  const gh = fakeRepo({ github, head: commit });
  gh.state.checkRuns.push(...structuredClone(params.checkRuns ?? []));
  let child: AppWorkerProcess | undefined;
  const queue = redis.queues.scan(CLUSTER);
  // A cycle is over when no scan is left to run: the completed set is capped (keepCompleted), so it cannot be counted.
  const left = async () => {
    const counts = await queue.getJobCounts("wait", "active", "delayed", "prioritized");
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  };
  try {
    child = await startAppWorkerProcess({
      redisUrl: redis.url,
      prefix: redis.prefix,
      cluster: CLUSTER,
      registryFile,
      snapshotDir: join(scratch, "snapshots"),
      lockMs: 30_000,
      gitHubHost: relay.host,
      gitHubProtocol: "http",
      watchLeaseMs: 6_000,
      ...(params.cgroupProcs ? { cgroupProcs: params.cgroupProcs } : {}),
    });
    const pid = child.child.pid ?? 0;
    const rss: Record<string, { rssMB: number; peakMB: number }> = { started: await rssOf(pid) };

    // A cycle: every target queued at once, as the schedule's ticks of one interval would.
    const cycle = async (name: string) => {
      const mark = github.requests.length;
      const failedBefore = await queue.getJobCountByTypes("failed");
      const began = Date.now();
      for (let t = 0; t < w.targets; t++) {
        await enqueueScan({
          queues: redis.queues,
          job: {
            installationId: gh.installationId,
            repo: "acme/gitops",
            target: w.targetName(t),
            cluster: CLUSTER,
            reason: "schedule",
          },
        });
      }
      // Polled each 250 ms: a tighter poll is Redis load the worker would share.
      while ((await left()) > 0) await new Promise((wake) => setTimeout(wake, 250));
      const wallMs = Date.now() - began;
      const failed = (await queue.getJobCountByTypes("failed")) - failedBefore;
      rss[name] = await rssOf(pid);
      const requests = github.requests.slice(mark);
      const result = { wallMs, failed, githubRequests: requests.length, byOperation: byOperation(requests) };
      log(
        `watch-app ${timed.label}: ${name}: ${wallMs} ms, ${requests.length} GitHub requests ${JSON.stringify(result.byOperation)}; worker RSS ${JSON.stringify(rss[name])}`,
      );
      return result;
    };

    // 1. The first cycle opens the watches and creates every target's check run, unless they exist.
    gh.expectToken();
    gh.expectApp();
    gh.expectHead(w.targets);
    gh.expectTarball();
    gh.expectIssues({ list: w.targets });
    gh.expectCheckRuns({ list: w.targets, create: params.checkRuns ? 0 : w.targets });
    const first = await cycle("first cycle");
    const settledCheckRuns = structuredClone(gh.state.checkRuns);
    // 2. Idle: nothing changed. The first idle cycle's check run lists are new (they changed when the runs were
    // created); the second's answers all match their ETags.
    const idle = [];
    for (const name of ["idle cycle 1", "idle cycle 2"]) {
      gh.expectHead(w.targets);
      gh.expectIssues({ list: w.targets });
      gh.expectCheckRuns({ list: w.targets });
      idle.push(await cycle(name));
    }

    // 3. Detection: a kubectl edit, one at a time, to the PATCH of its target's check run.
    const latencies: number[] = [];
    const edited: Array<[number, number]> = [];
    for (let e = 0; e < edits; e++) {
      const t = (e * 7) % w.targets;
      const run = checkRunOf(gh.state.checkRuns, w, t);
      const checkName = run.name;
      gh.expectHead();
      gh.expectIssues({ list: 1, create: 1 });
      gh.expectCheckRuns({ list: 1, update: 1, name: checkName });
      const began = Date.now();
      edited.push([t, e % w.perTarget]);
      await kubectl([
        ...["-n", w.namespace, "patch", "configmap", w.cmName(t, e % w.perTarget)],
        ...["--type", "merge", "-p", JSON.stringify({ data: { LOG_LEVEL: `edit-${e}` } })],
      ]);
      const patched = await waitFor(
        `${checkName}: its check run updated after the edit`,
        () =>
          github.requests.find(
            (r) => r.method === "PATCH" && r.path.endsWith(`/check-runs/${run.id}`) && r.at >= began,
          ),
        120_000,
      );
      expect(run.conclusion, `${checkName} after edit ${e}`).toBe("failure");
      latencies.push(patched.at - began);
    }
    latencies.sort((a, b) => a - b);
    const detection = {
      edits: latencies.length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies.at(-1),
    };
    rss.detected = await rssOf(pid);
    log(
      `watch-app ${timed.label}: detection, kubectl patch → check run PATCH: ${JSON.stringify(detection)}; worker RSS ${JSON.stringify(rss.detected)}`,
    );

    // 4. A change to 1% of the objects at once, one object in each of as many targets (the spread that costs the
    // most: every one a target newly drifted), none of them a target edited above. The watch events queue those
    // targets' scans; measured from the first write to the last of their check runs' PATCHes reaching GitHub.
    const detected = new Set(edited.map(([t]) => t));
    const spread = [...Array(w.targets).keys()]
      .filter((t) => !detected.has(t))
      .slice(0, Math.round((w.targets * w.perTarget) / 100));
    gh.expectHead(spread.length);
    // No changed target has an issue yet, so each scan reads every page of the bot's issues before it opens one:
    // one while fewer than 100 exist, then two, then three (50 from detection, then these), by the order in which
    // the scans run. The requests section of the results counts them.
    gh.expectIssues({
      list: spread.length,
      listPages: Math.ceil((edits + spread.length) / 100) + 1,
      create: spread.length,
    });
    gh.expectCheckRuns({ list: spread.length });
    const spreadRuns = spread.map((t) => {
      const run = checkRunOf(gh.state.checkRuns, w, t);
      gh.expectCheckRuns({ update: 1, name: run.name });
      return run;
    });
    // Only the requests from here on are looked at: the poll shares the machine with the worker it measures.
    const mark = github.requests.length;
    const changeBegan = Date.now();
    await mapLimit(spread, 8, async (t) => {
      edited.push([t, 0]);
      await setLogLevel(admin, w, t, 0, "changed");
    });
    const writtenMs = Date.now() - changeBegan;
    const ids = new Set(spreadRuns.map((r) => `/check-runs/${r.id}`));
    const lastPatch = await waitFor(
      `the ${spread.length} changed targets' check runs updated`,
      () => {
        const patches = github.requests
          .slice(mark)
          .filter((r) => r.method === "PATCH" && ids.has(r.path.slice(r.path.lastIndexOf("/check-runs/"))));
        return patches.length === spread.length ? patches.at(-1) : undefined;
      },
      // Each target opens an issue, which Probot's throttling spaces 3 s apart (it notifies people): 600 s at 1,000.
      (spread.length * 5 + 120) * 1000,
    );
    for (const run of spreadRuns) expect(run.conclusion, run.name).toBe("failure");
    while ((await left()) > 0) await new Promise((wake) => setTimeout(wake, 250));
    rss.changed = await rssOf(pid);
    const change = {
      objectsInAsManyTargets: spread.length,
      writeMs: writtenMs,
      allReportedMs: lastPatch.at - changeBegan,
      githubWrites: github.requests.slice(mark).filter((r) => r.method !== "GET").length,
    };
    log(`watch-app ${timed.label}: 1% of the objects changed: ${JSON.stringify(change)}`);
    rss.end = await rssOf(pid);
    log(`watch-app ${timed.label}: worker RSS ${JSON.stringify(rss)}`);
    const results = {
      rtt: timed.label,
      firstCycle: params.checkRuns ? "restarted worker, check runs current" : "installation, check runs created",
      first,
      idle,
      detectionMs: detection,
      onePercentChanged: change,
      workerRss: rss,
    };
    return { results, settledCheckRuns, edited };
  } catch (error) {
    log(`watch-app: the worker's output:\n${child?.output().slice(-4000) ?? ""}`);
    throw error;
  } finally {
    await child?.stop();
    await relay.close();
    await redis.cleanup([CLUSTER]);
  }
}
