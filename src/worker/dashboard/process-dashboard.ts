// The worker's side of a tracking issue's dashboard (a `dashboard` job: the
// boxes one writer ticked in one edit):
//   0. "rescan now" alone: a scan queued, no scan here first
//   1. the target resolved as a scan resolves it (registry, head, snapshot, config)
//   2. a fresh scan, less the snoozed objects: each box id is matched against
//      the boxes this report would show, so what a box asks is read from the
//      cluster now, never from text in the issue
//   3. the actions, each on just its ticked items: codify and revert open or
//      update the target's PR of that mode (act-on-boxes.ts); ignore asks for
//      an `ignore` job, queued in step 5; snooze is kept in Redis; rescan (and
//      every snooze, so the issue shows it) asks for a scan, queued in step 5
//   4. the boxes unticked and one line per action ("@bob asked to codify … → #3"),
//      kept in Redis too so later scans keep showing it; each action audited
//   5. the ignore job, which rewrites its line with the PR it opens (settle-ignore-line.ts), and the scan,
//      when one was asked for: queued last, so their edits of the issue come after ours
import { rewriteIssueBody } from "../../github/issue-body.ts";
import { codifiableFor } from "../../modes/warn/issue-dashboard.ts";
import { enqueueScan } from "../../queue/enqueue-scan.ts";
import type { DashboardJob, ScanJob } from "../../queue/jobs.ts";
import type { ScanContext } from "../../queue/process-job.ts";
import { type DashboardItem, dashboardBoxes } from "../../report/app/dashboard-body.ts";
import { addLogLines, untick } from "../../report/app/dashboard-boxes.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import { recordAudit } from "../../state/record-audit.ts";
import { resolveScanTarget } from "../resolve-scan-target.ts";
import { scanJobAudit } from "../scan-job-audit.ts";
import { scanOnSharedSession } from "../scan-on-shared-session.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { actOnBoxes } from "./act-on-boxes.ts";
import { withoutSnoozed } from "./without-snoozed.ts";

/** What a dashboard job did, kept as its result: the lines it wrote, no values. */
export interface DashboardOutcome {
  outcome: "acted" | "skipped";
  lines: string[];
}

export async function processDashboard(params: {
  deps: WorkerDeps;
  job: DashboardJob;
  context: ScanContext;
}): Promise<DashboardOutcome> {
  const { deps, job } = params;
  const { signal } = params.context;
  const scanJob: ScanJob = {
    installationId: job.installationId,
    repo: job.repo,
    target: job.target,
    cluster: job.cluster,
    reason: "comment",
  };
  const [owner = "", repo = ""] = job.repo.split("/");

  // 0. Only "rescan now": the scan itself is the answer, no need to scan here first.
  if (job.boxes.every((b) => b.action === "rescan")) return rescanOnly({ deps, job, scanJob, owner, repo });

  // 1. The target, as its scans resolve it.
  const found = await resolveScanTarget({ deps, job: scanJob, signal, audit: scanJobAudit({ deps, job: scanJob }) });
  if ("skipped" in found) {
    const octokit = await deps.probot.auth(job.installationId);
    const line = `@${job.requestedBy} ticked ${job.boxes.length} box(es), but target \`${job.target}\` is not scanned any more (${found.skipped.outcome}); nothing was done.`;
    await settleIssue({ octokit, owner, repo, job, lines: [line] });
    return { outcome: "skipped", lines: [line] };
  }
  const { resolved } = found;

  // 2. A fresh scan, less the snoozed objects, and what each ticked box asks for in it.
  const scanned = await scanOnSharedSession({ deps, resolved });
  const { scan } = await withoutSnoozed({ deps, repo: job.repo, scan: scanned.scan });
  signal.throwIfAborted();
  const shown = dashboardBoxes({ report: scan.report, codifiable: codifiableFor(scan.renderer) });
  const asked: DashboardItem[] = [];
  let gone = 0;
  for (const box of job.boxes) {
    const item = shown.get(box.id);
    if (item && item.action === box.action) asked.push(item);
    else gone++;
  }

  // 3. The actions.
  const state = stateOf(deps, job);
  const { client } = scanned;
  const { lines, rescan, later } = await actOnBoxes({ deps, job, resolved, scan, client, asked, state });
  if (gone > 0)
    lines.push(
      `@${job.requestedBy} ticked ${gone} box(es) for drift that is not there any more (gone, changed or snoozed); nothing was done for them.`,
    );

  // 4. The boxes unticked, with a line per action, here and in what later scans render.
  for (const line of [...lines].reverse()) await state.addLog(line);
  await settleIssue({ octokit: resolved.octokit, owner, repo, job, lines });
  // An ignore job rewrites its tick's line when done: queued once that line is in the issue and in Redis.
  for (const queue of later) await queue();
  // After the issue is settled, so the scan's edit of it comes last (a snooze shows, and leaves the report).
  if (rescan) await enqueueScan({ queues: deps.queues, job: scanJob });
  return { outcome: "acted", lines };
}

/** Step 0: every box ticked is "rescan now": the scan queued, said in the issue and the audit stream. */
async function rescanOnly(params: {
  deps: WorkerDeps;
  job: DashboardJob;
  scanJob: ScanJob;
  owner: string;
  repo: string;
}): Promise<DashboardOutcome> {
  const { deps, job, owner, repo } = params;
  const line = `@${job.requestedBy} asked for a rescan → scan queued`;
  await recordAudit({
    queues: deps.queues,
    log: deps.log,
    entry: {
      event: "dashboard-rescan",
      repo: job.repo,
      target: job.target,
      cluster: job.cluster,
      actor: job.requestedBy,
      outcome: "scan queued",
    },
  });
  await stateOf(deps, job).addLog(line);
  await settleIssue({ octokit: await deps.probot.auth(job.installationId), owner, repo, job, lines: [line] });
  await enqueueScan({ queues: deps.queues, job: params.scanJob });
  return { outcome: "acted", lines: [line] };
}

function stateOf(deps: WorkerDeps, job: DashboardJob) {
  return dashboardState({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: job.repo,
    target: job.target,
  });
}

/** Unticks the job's boxes on the issue as it is now, and adds the lines below its log marker: one read, one edit. */
async function settleIssue(params: {
  octokit: Awaited<ReturnType<WorkerDeps["probot"]["auth"]>>;
  owner: string;
  repo: string;
  job: DashboardJob;
  lines: string[];
}): Promise<void> {
  const { octokit, owner, repo, job } = params;
  await rewriteIssueBody({
    octokit,
    owner,
    repo,
    issue: job.issue,
    rewrite: (before) => addLogLines(untick(before, new Set(job.boxes.map((b) => b.id))), params.lines),
    steps: { read: `read tracking issue #${job.issue}`, edit: `untick the dashboard boxes of #${job.issue}` },
  });
}
