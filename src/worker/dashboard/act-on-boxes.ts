// The dashboard's actions, each on just the items ticked for it, and the line
// each writes ("@bob asked to codify `…` → #3 <url>"); every action is audited
// with the writer as its actor.

import { findDriftPr } from "../../github/find-drift-pr.ts";
import { codifyDrift } from "../../modes/codify/codify-drift.ts";
import type { ModeResult } from "../../modes/mode-result.ts";
import { revertDrift } from "../../modes/revert/revert-drift.ts";
import { utcMinute } from "../../modes/warn/issue-dashboard.ts";
import { keptLive } from "../../plan/revert/kept-live.ts";
import { type DriftItem, sameItem, selectDrift, stillDrifts } from "../../plan/selected-drift.ts";
import { enqueueIgnore } from "../../queue/enqueue-dashboard.ts";
import type { DashboardJob } from "../../queue/jobs.ts";
import type { DashboardItem } from "../../report/app/dashboard-body.ts";
import type { DashboardAction } from "../../report/app/dashboard-boxes.ts";
import { describeTicked, ignoreTickLine } from "../../report/app/dashboard-ignore-line.ts";
import { formatDashboardTicks, readDashboardTicks } from "../../report/app/dashboard-ticks.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { DashboardState } from "../../state/dashboard-state.ts";
import { recordAudit } from "../../state/record-audit.ts";
import type { ResolvedScanTarget } from "../resolve-scan-target.ts";
import type { WorkerDeps } from "../worker-deps.ts";

const DAY_MS = 24 * 3600_000;
// The order lines appear in, whatever order the boxes were ticked in.
const ORDER: readonly DashboardAction[] = ["codify", "revert", "ignore", "snooze-1d", "snooze-7d", "rescan"];

/**
 * Does what `asked` asks; returns one line per action, whether a scan should follow (rescan, snooze), and what
 * to queue once the lines are kept (an ignore job).
 */
export async function actOnBoxes(params: {
  deps: WorkerDeps;
  job: DashboardJob;
  resolved: ResolvedScanTarget;
  scan: ScanResult;
  asked: DashboardItem[];
  state: DashboardState;
}): Promise<{ lines: string[]; rescan: boolean; later: Array<() => Promise<void>> }> {
  const { deps, job, resolved, scan, state } = params;
  const { reads, owner, repo, head, repoDir, config, target } = resolved;
  const who = `@${job.requestedBy}`;
  const base = { branch: head.branch, sha: head.sha, treeSha: head.treeSha };
  const lines: string[] = [];
  const later: Array<() => Promise<void>> = [];
  let rescan = false;
  const audit = (event: string, outcome: string, items: DashboardItem[], url?: string) =>
    recordAudit({
      queues: deps.queues,
      log: deps.log,
      entry: {
        event,
        repo: job.repo,
        target: job.target,
        cluster: job.cluster,
        revision: head.sha,
        actor: job.requestedBy,
        objects: [...new Set(items.flatMap((i) => (i.ref ? [auditName(i)] : [])))],
        fields: items.flatMap((i) => (i.ref && i.path ? [`${auditName(i)}:${i.path}`] : [])),
        outcome,
        ...(url ? { url } : {}),
      },
    });

  for (const action of ORDER) {
    const items = params.asked.filter((i) => i.action === action);
    if (items.length === 0) continue;
    const what = describe(items);
    if (action === "codify" || action === "revert") {
      // The PR keeps what earlier ticks put there: their items, less those whose drift is gone, and these.
      const found = { pr: await findDriftPr({ octokit: reads, owner, repo, target: target.name, mode: action }) };
      const ticked: DriftItem[] = items.flatMap((i) =>
        i.ref ? [{ ref: i.ref, ...(i.path ? { path: i.path } : {}) }] : [],
      );
      const earlier = (readDashboardTicks(found.pr?.body) ?? []).filter((e) => !ticked.some((t) => sameItem(e, t)));
      const gone = earlier.filter((e) => !stillDrifts(scan.report, e));
      const carried = [...earlier.filter((e) => stillDrifts(scan.report, e)), ...ticked];
      const selected = selectDrift(scan, carried);
      const hidden = formatDashboardTicks(carried);
      const pullRequests = config.pullRequests;
      const result: ModeResult =
        action === "codify"
          ? await codifyDrift({
              octokit: reads,
              owner,
              repo,
              scan: selected,
              repoDir,
              cluster: target.cluster,
              base,
              pullRequests,
              found,
              hidden,
            })
          : await revertDrift({
              octokit: reads,
              owner,
              repo,
              report: selected.report,
              kept: keptLive(selected),
              cluster: target.cluster,
              base,
              pullRequests,
              found,
              hidden,
            });
      const pr = result.pullRequest;
      // What a later scan of the target settles it by (settle-dashboard-prs.ts).
      if (pr) await state.openedPr(action, carried);
      const outcome = pr
        ? `→ #${pr.number}${pr.url ? ` ${pr.url}` : ""}`
        : `: no pull request (${result.lines[0] ?? "nothing to do"})`;
      lines.push(`${who} asked to ${action} ${what} ${outcome}`);
      if (gone.length > 0) lines.push(`Dropped from the ${action} pull request, no longer drifting: ${describe(gone)}`);
      await audit(`dashboard-${action}`, pr ? `#${pr.number}` : "no pull request", items, pr?.url);
    } else if (action === "ignore") {
      const ignored = items.flatMap((i) => (i.ref ? [{ ...i.ref, ...(i.path ? { path: i.path } : {}) }] : []));
      // The ignore job rewrites this line with its pull request (settle-ignore-line.ts), so it is queued only once
      // the line is kept: after the issue is settled.
      lines.push(ignoreTickLine({ requestedBy: job.requestedBy, items: ignored }));
      later.push(async () => {
        const id = await enqueueIgnore({
          queues: deps.queues,
          job: {
            installationId: job.installationId,
            repo: job.repo,
            target: job.target,
            cluster: job.cluster,
            items: ignored,
            requestedBy: job.requestedBy,
          },
        });
        await audit("dashboard-ignore", `ignore job ${id} queued`, items);
      });
    } else if (action === "snooze-1d" || action === "snooze-7d") {
      const until = (deps.now ?? Date.now)() + (action === "snooze-1d" ? 1 : 7) * DAY_MS;
      for (const item of items) if (item.ref) await state.snooze({ ref: item.ref, until, by: job.requestedBy });
      lines.push(`${who} snoozed ${what} until ${utcMinute(until)}`);
      await audit("dashboard-snooze", `snoozed until ${new Date(until).toISOString()}`, items);
      rescan = true;
    } else {
      lines.push(`${who} asked for a rescan → scan queued`);
      await audit("dashboard-rescan", "scan queued", items);
      rescan = true;
    }
  }
  return { lines, rescan, later };
}

function describe(items: ReadonlyArray<Pick<DashboardItem, "ref" | "path">>): string {
  return describeTicked(items.flatMap((i) => (i.ref ? [{ ref: i.ref, path: i.path }] : [])));
}

function auditName(item: DashboardItem): string {
  const ref = item.ref!;
  return [ref.kind, ref.namespace, ref.name].filter(Boolean).join("/");
}
