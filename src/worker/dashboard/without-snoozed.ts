// A scan without the objects snoozed from the dashboard: until its time, a
// snoozed object is not reported (issue, check run, metrics) and not healed,
// since those outputs read this report. Notifications read it too, but are
// also given which objects were left out (`snoozed`): without it, a snooze
// would change the drift's fingerprint and read as new or resolved drift.
import type { ObjectRef } from "../../model/object-label.ts";
import { withoutObjects } from "../../plan/selected-drift.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export async function withoutSnoozed(params: {
  deps: WorkerDeps;
  repo: string;
  scan: ScanResult;
}): Promise<{ scan: ScanResult; snoozed: ObjectRef[] }> {
  const { deps, scan } = params;
  const state = dashboardState({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: params.repo,
    target: scan.target.name,
  });
  const snoozed = (await state.snoozes((deps.now ?? Date.now)())).map((s) => s.ref);
  return { scan: withoutObjects(scan, snoozed), snoozed };
}
