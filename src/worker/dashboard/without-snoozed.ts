// A scan without the objects snoozed from the dashboard: until its time, a
// snoozed object is not reported (issue, check run, metrics), not healed and
// not notified, reminders included, since every output reads this report.
import { withoutObjects } from "../../plan/selected-drift.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export async function withoutSnoozed(params: {
  deps: WorkerDeps;
  repo: string;
  scan: ScanResult;
}): Promise<ScanResult> {
  const { deps, scan } = params;
  const state = dashboardState({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: params.repo,
    target: scan.target.name,
  });
  const snoozes = await state.snoozes((deps.now ?? Date.now)());
  return withoutObjects(
    scan,
    snoozes.map((s) => s.ref),
  );
}
