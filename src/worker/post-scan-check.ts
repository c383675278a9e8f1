// The check run `undrift/<target>` on the scanned head: the report, what the
// modes did and where to act, a note when the last valid config stood in, and
// how the rules split the objects between modes. Audited when it changed.
import { checkRunName, ensureCheckRun } from "../github/ensure-check-run.ts";
import type { DriftReport } from "../model/types.ts";
import type { ModeResult } from "../modes/mode-result.ts";
import { type ModeShare, shareLines } from "../plan/mode-shares.ts";
import { scanCheckOutput } from "../report/app/scan-check-output.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { ScanAudit } from "./scan-job-audit.ts";

/** The job's action for the check run (none when it was unchanged), and where the check run is. */
export async function postScanCheck(params: {
  resolved: ResolvedScanTarget;
  report: DriftReport;
  mode: ModeResult;
  shares: ModeShare[];
  audit: ScanAudit;
}): Promise<{ actions: string[]; url?: string }> {
  const { reads, owner, repo, head, invalid, target } = params.resolved;
  const cluster = target.cluster;
  const lines = [...params.mode.lines];
  if (invalid) {
    lines.push(
      `**Note:** \`.github/undrift.yml\` at this commit is invalid (${invalid.message}); this scan used the repository's last valid config.`,
    );
  }
  lines.push(...shareLines(target, params.shares));

  const { conclusion, output } = scanCheckOutput({ report: params.report, mode: target.mode, cluster, lines });
  const check = await ensureCheckRun({
    octokit: reads,
    owner,
    repo,
    name: checkRunName(target.name),
    headSha: head.sha,
    conclusion,
    output,
  });
  const url = check.url ? { url: check.url } : {};
  if (check.action === "unchanged") return { actions: [], ...url };
  await params.audit({
    event: "check-run",
    cluster,
    revision: head.sha,
    outcome: `${check.action}: ${conclusion}`,
    ...(check.url ? { url: check.url } : {}),
  });
  return { actions: [`${check.action} check run ${checkRunName(target.name)}`], ...url };
}
