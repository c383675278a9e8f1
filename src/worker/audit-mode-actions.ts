// One audit entry per thing the modes did (a PR opened, an object healed), in
// the order they did it; their summaries become the job's `actions`.
import type { ModeResult } from "../modes/mode-result.ts";
import type { ScanAudit } from "./scan-job-audit.ts";

export async function auditModeActions(params: {
  audit: ScanAudit;
  mode: ModeResult;
  cluster: string;
  revision: string;
}): Promise<string[]> {
  const { audit, cluster, revision } = params;
  const actions: string[] = [];
  for (const done of params.mode.done) {
    actions.push(done.summary);
    const { event, summary, url, ...names } = done;
    await audit({ event, cluster, revision, outcome: summary, ...(url ? { url } : {}), ...names });
  }
  return actions;
}
