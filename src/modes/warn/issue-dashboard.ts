// The dashboard part of a target's tracking issue, from the report and what
// the dashboard keeps in Redis (snoozes in force, recent lines).
import type { TargetConfig } from "../../config/schema.ts";
import type { Renderer } from "../../desired/render-target.ts";
import type { DriftReport, ResourceReport } from "../../model/types.ts";
import { notCodifiable } from "../../plan/not-codifiable.ts";
import { renderDashboard } from "../../report/app/dashboard-body.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import type { ModeDeps } from "../mode-deps.ts";

// The report below it gets the rest of the body (ensure-target-issue.ts).
const DASHBOARD_LIMIT = 30_000;

export async function issueDashboard(params: {
  deps: ModeDeps;
  owner: string;
  repo: string;
  target: TargetConfig;
  report: DriftReport;
  renderer: Renderer;
}): Promise<string> {
  const { deps } = params;
  const state = dashboardState({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: `${params.owner}/${params.repo}`,
    target: params.target.name,
  });
  const snoozes = await state.snoozes((deps.now ?? Date.now)());
  return renderDashboard({
    report: params.report,
    codifiable: codifiableFor(params.renderer),
    snoozes: snoozes.map((s) => ({ ref: s.ref, by: s.by, until: utcMinute(s.until) })),
    log: await state.log(),
    maxLength: DASHBOARD_LIMIT,
  });
}

/** Whether codify can handle an object of a target rendered by `renderer`. */
export function codifiableFor(renderer: Renderer): (resource: ResourceReport) => boolean {
  return (resource) => notCodifiable({ object: resource, renderer }) === undefined;
}

/** `2026-12-03 17:00 UTC`. */
export function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
