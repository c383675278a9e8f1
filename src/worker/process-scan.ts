// The worker's scan of one target, the same stages the CLI runs:
//   0. the job's cluster checked against the registry (refused: nothing is read)
//   1. GitHub as the installation (probot.auth), reads made conditional
//   2. the default branch head (a 304 when it has not moved)
//   3. the repository snapshot at that commit (cached on disk by SHA)
//   4. the config from the snapshot, the target (moved to another cluster: handed over)
//   5. the scan, its report naming the commit
//   6. the modes' actions, each on its share of the report (the target's mode,
//      or the first matching rule's per object, see mode-shares.ts): warn
//      (tracking issue), codify (pull request), revert
//      (pull request with a record file; a merge job applies it, see
//      process-revert-merge.ts), heal (Git applied at once, then the tracking
//      issue says what was healed and pruned; fights stop healing, see heal-drift.ts)
//   7. the check run `undrift/<target>` on the head; an audit entry per action
// A scan that finds what the last one found writes nothing on GitHub.
import { clusterFor } from "../config/cluster-registry.ts";
import { summarize } from "../drift/summarize.ts";
import { withConditionalGets } from "../github/conditional-gets.ts";
import { defaultBranchHead } from "../github/default-branch-head.ts";
import { downloadSnapshot } from "../github/download-snapshot.ts";
import { checkRunName, ensureCheckRun } from "../github/ensure-check-run.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import type { DriftReport } from "../model/types.ts";
import { modeShares, shareLines } from "../plan/mode-shares.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import { scanCheckOutput } from "../report/app/scan-check-output.ts";
import { summaryLine } from "../report/summary-line.ts";
import { runScan, type ScanResult } from "../stages/scan/scan-target.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { recordAudit } from "../state/record-audit.ts";
import { redisStore } from "../state/redis-store.ts";
import { reportAudit } from "../state/report-audit.ts";
import { codifyDrift } from "./codify-drift.ts";
import { healDrift } from "./heal-drift.ts";
import type { ModeResult } from "./mode-result.ts";
import { readSnapshotConfig } from "./read-snapshot-config.ts";
import { revertDrift } from "./revert-drift.ts";
import { warnDrift } from "./warn-drift.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What a scan job did, kept as its result: small, and free of values. */
export interface ScanOutcome {
  outcome: "scanned" | "no-config" | "target-gone" | "moved";
  revision: string;
  summary?: string;
  fingerprint?: string;
  /** The GitHub writes made, as `created check run`, `opened issue #3`. */
  actions: string[];
}

export async function processScan(params: {
  deps: WorkerDeps;
  job: ScanJob;
  context: ScanContext;
}): Promise<ScanOutcome> {
  const { deps, job, context } = params;
  const { queues, log } = deps;
  const { signal } = context;
  const [owner = "", repo = ""] = job.repo.split("/");
  const redis = queues.connection;
  const store = redisStore({ redis, prefix: queues.prefix });
  const audit = (entry: {
    event: string;
    outcome: string;
    cluster?: string;
    revision?: string;
    url?: string;
    objects?: string[];
    fields?: string[];
    managers?: string[];
  }) => recordAudit({ queues, log, entry: { repo: job.repo, target: job.target, actor: "undrift", ...entry } });

  // 0. A cluster the registry does not let this repository use is refused before anything is read.
  clusterFor(deps.registry, job.cluster, job.repo);

  // 1-2. The installation's client and the default branch head.
  const octokit = await deps.probot.auth(job.installationId);
  const reads = withConditionalGets({ octokit, store });
  const head = await defaultBranchHead({ octokit: reads, store, owner, repo });
  signal.throwIfAborted();

  // 3-4. The snapshot, its config and the target.
  const snapshot = await downloadSnapshot({ octokit, owner, repo, sha: head.sha, cacheDir: deps.snapshotDir });
  const kept = lastValidConfig({ redis, prefix: queues.prefix });
  const read = await readSnapshotConfig({
    dir: snapshot.dir,
    octokit,
    owner,
    repo,
    sha: head.sha,
    lastValid: () => kept.get(job.repo),
  });
  if (!read) {
    await audit({ event: "scan-skipped", revision: head.sha, outcome: "the repository has no .github/undrift.yml" });
    return { outcome: "no-config", revision: head.sha, actions: [] };
  }
  if (!read.invalid) await kept.set(job.repo, read.config);
  const target = read.config.targets.find((t) => t.name === job.target);
  if (!target) {
    // Its scheduler goes with the push that removed it; this job was already queued.
    await audit({ event: "scan-skipped", revision: head.sha, outcome: "the target is no longer in the config" });
    return { outcome: "target-gone", revision: head.sha, actions: [] };
  }
  if (target.cluster !== job.cluster) {
    // The config moved the target to another cluster: that cluster's workers (and credentials) scan it.
    await enqueueScan({ queues, job: { ...job, cluster: target.cluster, revision: head.sha } });
    return { outcome: "moved", revision: head.sha, actions: [`handed to the queue of cluster ${target.cluster}`] };
  }
  const entry = clusterFor(deps.registry, target.cluster, job.repo);
  const kubeConfig = loadKubeconfig(entry);
  signal.throwIfAborted();

  // 5. The scan, on the cluster session of the jobs running beside it (their LISTs are shared);
  //    the snapshot has no .git, so its report is told the commit it rendered.
  const lease = deps.sessions?.acquire(target.cluster, kubeConfig);
  let scan: ScanResult;
  try {
    scan = await runScan({
      repoDir: snapshot.dir,
      targetName: target.name,
      kubeConfig,
      config: read.config,
      revision: head.sha,
      ...(lease ? { session: lease.session } : {}),
    });
  } finally {
    lease?.release();
  }
  const { report } = scan;
  const cluster = target.cluster;
  await audit({ event: "scan", cluster, revision: head.sha, outcome: summaryLine(report), ...reportAudit(report) });
  signal.throwIfAborted();

  // 6. The modes' actions, each on its share of the report (rules pick the mode per object).
  const shares = modeShares(scan);
  const shareOf = (mode: string) => shares.find((s) => s.mode === mode);
  // Warn and heal both report on the one tracking issue: it shows both shares.
  const issueShares = shares.filter((s) => s.mode === "warn" || s.mode === "heal");
  const issueReport =
    issueShares.length > 1
      ? joinShares(
          report,
          issueShares.map((s) => s.scan.report),
        )
      : issueShares[0]?.scan.report;
  const base = { branch: head.branch, sha: head.sha, treeSha: head.treeSha };
  const results: ModeResult[] = [];
  for (const share of shares) {
    if (share.mode === "codify") {
      results.push(
        await codifyDrift({
          octokit: reads,
          owner,
          repo,
          scan: share.scan,
          repoDir: snapshot.dir,
          cluster,
          base,
          pullRequests: read.config.pullRequests,
        }),
      );
    } else if (share.mode === "revert") {
      const pullRequests = read.config.pullRequests;
      results.push(
        await revertDrift({ octokit: reads, owner, repo, report: share.scan.report, cluster, base, pullRequests }),
      );
    } else if (share.mode === "heal") {
      results.push(
        await healDrift({ deps, octokit: reads, owner, repo, scan: share.scan, target, ...issueOf(issueReport) }),
      );
    } else if (!shareOf("heal") && issueReport) {
      results.push(await warnDrift({ deps, octokit: reads, owner, repo, report: issueReport, target }));
    }
  }
  const mode: ModeResult = { done: results.flatMap((r) => r.done), lines: results.flatMap((r) => r.lines) };
  const actions: string[] = [];
  for (const done of mode.done) {
    actions.push(done.summary);
    const { event, summary, url, ...names } = done;
    await audit({ event, cluster, revision: head.sha, outcome: summary, ...urlOf(url), ...names });
  }
  const lines = [...mode.lines];
  if (read.invalid) {
    lines.push(
      `**Note:** \`.github/undrift.yml\` at this commit is invalid (${read.invalid.message}); this scan used the repository's last valid config.`,
    );
  }
  lines.push(...shareLines(target, shares));

  // 7. The check run on the head.
  const { conclusion, output } = scanCheckOutput({ report, mode: target.mode, cluster, lines });
  const check = await ensureCheckRun({
    octokit: reads,
    owner,
    repo,
    name: checkRunName(target.name),
    headSha: head.sha,
    conclusion,
    output,
  });
  if (check.action !== "unchanged") {
    actions.push(`${check.action} check run ${checkRunName(target.name)}`);
    await audit({
      event: "check-run",
      cluster,
      revision: head.sha,
      outcome: `${check.action}: ${conclusion}`,
      ...urlOf(check.url),
    });
  }
  return {
    outcome: "scanned",
    revision: head.sha,
    summary: summaryLine(report),
    fingerprint: report.fingerprint,
    actions,
  };
}

/** One report of several shares of it: their objects, in the scan's order. */
function joinShares(report: DriftReport, parts: DriftReport[]): DriftReport {
  const kept = new Set(parts.flatMap((p) => p.resources));
  const resources = report.resources.filter((r) => kept.has(r));
  return { ...report, resources, ...summarize(resources) };
}

function issueOf(report: DriftReport | undefined): { issueReport?: DriftReport } {
  return report ? { issueReport: report } : {};
}

function urlOf(url: string | undefined): { url?: string } {
  return url ? { url } : {};
}
