// The dashboard's actions, each on just the items ticked for it, and the line
// each writes ("@bob asked to codify `…` → #3 <url>"); every action is audited
// with the writer as its actor.

import { findDriftPr } from "../../github/find-drift-pr.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { codifyHandler } from "../../modes/codify/codify-handler.ts";
import type { ModeResult } from "../../modes/mode-result.ts";
import { revertHandler } from "../../modes/revert/revert-handler.ts";
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
import { modeContext } from "../mode-context.ts";
import type { ResolvedScanTarget } from "../resolve-scan-target.ts";
import type { WorkerDeps } from "../worker-deps.ts";

const DAY_MS = 24 * 3600_000;
// The order lines appear in, whatever order the boxes were ticked in.
const ORDER: readonly DashboardAction[] = ["codify", "revert", "ignore", "snooze-1d", "snooze-7d", "rescan"];

interface BoxesParams {
  deps: WorkerDeps;
  job: DashboardJob;
  resolved: ResolvedScanTarget;
  scan: ScanResult;
  /** The client of the session the scan ran on. */
  client: KubeClient;
  asked: DashboardItem[];
  state: DashboardState;
}

type Audit = (event: string, outcome: string, items: DashboardItem[], url?: string) => Promise<void>;

/**
 * Does what `asked` asks; returns one line per action, whether a scan should follow (rescan, snooze), and what
 * to queue once the lines are kept (an ignore job).
 */
export async function actOnBoxes(
  params: BoxesParams,
): Promise<{ lines: string[]; rescan: boolean; later: Array<() => Promise<void>> }> {
  const { deps, job, state } = params;
  const who = `@${job.requestedBy}`;
  const lines: string[] = [];
  const later: Array<() => Promise<void>> = [];
  let rescan = false;
  const audit = auditOf(params);
  for (const action of ORDER) {
    const items = params.asked.filter((i) => i.action === action);
    if (items.length === 0) continue;
    const what = describe(items);
    if (action === "codify" || action === "revert") {
      lines.push(...(await actOnDriftPr(params, action, items, audit)));
    } else if (action === "ignore") {
      const ignored = items.flatMap((i) => (i.ref ? [{ ...i.ref, ...(i.path ? { path: i.path } : {}) }] : []));
      // The ignore job rewrites this line with its pull request (settle-ignore-line.ts), so it is queued only once
      // the line is kept: after the issue is settled.
      lines.push(ignoreTickLine({ requestedBy: job.requestedBy, items: ignored }));
      later.push(async () => {
        const { installationId, repo, target, cluster, requestedBy } = job;
        const id = await enqueueIgnore({
          queues: deps.queues,
          job: { installationId, repo, target, cluster, items: ignored, requestedBy },
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

/** Every action is audited with the writer as its actor, and the objects and fields it was asked for. */
function auditOf({ deps, job, resolved }: BoxesParams): Audit {
  return (event, outcome, items, url) =>
    recordAudit({
      queues: deps.queues,
      log: deps.log,
      entry: {
        event,
        repo: job.repo,
        target: job.target,
        cluster: job.cluster,
        revision: resolved.head.sha,
        actor: job.requestedBy,
        objects: [...new Set(items.flatMap((i) => (i.ref ? [auditName(i)] : [])))],
        fields: items.flatMap((i) => (i.ref && i.path ? [`${auditName(i)}:${i.path}`] : [])),
        outcome,
        ...(url ? { url } : {}),
      },
    });
}

/**
 * Codify or revert of the ticked items through the mode's own handler. The PR keeps what earlier ticks put
 * there: their items, less those whose drift is gone, and these.
 */
async function actOnDriftPr(
  params: BoxesParams,
  action: "codify" | "revert",
  items: DashboardItem[],
  audit: Audit,
): Promise<string[]> {
  const { job, resolved, scan, state } = params;
  const { reads, owner, repo, target } = resolved;
  const found = { pr: await findDriftPr({ octokit: reads, owner, repo, target: target.name, mode: action }) };
  const ticked: DriftItem[] = items.flatMap((i) =>
    i.ref ? [{ ref: i.ref, ...(i.path ? { path: i.path } : {}) }] : [],
  );
  const earlier = (readDashboardTicks(found.pr?.body) ?? []).filter((e) => !ticked.some((t) => sameItem(e, t)));
  const gone = earlier.filter((e) => !stillDrifts(scan.report, e));
  const carried = [...earlier.filter((e) => stillDrifts(scan.report, e)), ...ticked];
  const selected = selectDrift(scan, carried);
  const hidden = formatDashboardTicks(carried);
  const context = modeContext({ ...params, scan: selected, shares: [] });
  const result: ModeResult =
    action === "codify"
      ? await codifyHandler.act({ scan: selected, found, hidden }, context)
      : await revertHandler.act({ report: selected.report, kept: keptLive(selected), found, hidden }, context);
  const pr = result.pullRequest;
  // What a later scan of the target settles it by (settle-dashboard-prs.ts).
  if (pr) await state.openedPr(action, carried);
  const outcome = pr
    ? `→ #${pr.number}${pr.url ? ` ${pr.url}` : ""}`
    : `: no pull request (${result.lines[0] ?? "nothing to do"})`;
  const lines = [`@${job.requestedBy} asked to ${action} ${describe(items)} ${outcome}`];
  if (gone.length > 0) lines.push(`Dropped from the ${action} pull request, no longer drifting: ${describe(gone)}`);
  await audit(`dashboard-${action}`, pr ? `#${pr.number}` : "no pull request", items, pr?.url);
  return lines;
}

function describe(items: ReadonlyArray<Pick<DashboardItem, "ref" | "path">>): string {
  return describeTicked(items.flatMap((i) => (i.ref ? [{ ref: i.ref, path: i.path }] : [])));
}

function auditName(item: DashboardItem): string {
  const ref = item.ref!;
  return [ref.kind, ref.namespace, ref.name].filter(Boolean).join("/");
}
