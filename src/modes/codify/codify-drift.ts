// The codify side of a scan: the drift becomes one pull request on
// `undrift/codify/<target>` whose commit edits Git to match the cluster, built
// on the commit the scan read; the same drift later writes nothing; no drift
// closes the PR with a comment. Drift that nothing could codify gets no PR,
// and the check run says why.
import { realpath } from "node:fs/promises";
import { ensureDriftPr } from "../../github/ensure-drift-pr.ts";
import { objectLabel } from "../../model/object-label.ts";
import { codifyPrBody } from "../../report/app/codify-pr-body.ts";
import { codifyScan } from "../../stages/codify/codify-target.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { ModeResult } from "../mode-result.ts";
import { type DriftPrParams, recordPrAction, settleWithoutDrift, withHidden } from "../settle-drift-pr.ts";

export async function codifyDrift(
  params: DriftPrParams & {
    scan: ScanResult;
    /** The snapshot the scan rendered: codify reads its files and proves edits on a scratch copy of it. */
    repoDir: string;
  },
): Promise<ModeResult> {
  const { octokit, owner, repo, scan } = params;
  const { report, target } = scan;
  const result: ModeResult = { done: [], lines: [] };
  if (await settleWithoutDrift({ octokit, owner, repo, target: target.name, mode: "codify", report, result }))
    return result;
  const codify = await codifyScan({
    repoDir: await realpath(params.repoDir),
    target,
    desired: scan.desired,
    pairings: scan.pairings,
    problems: report.problems,
    policy: scan.policy,
    renderer: scan.renderer,
    scopeOf: (apiVersion, kind) => scan.index.scopeOf(apiVersion, kind),
    variables: scan.variables,
  });
  if (codify.files.length === 0) {
    const why = codify.notCodified.slice(0, 20).map((n) => `- \`${objectLabel(n)}\`: ${n.reason}`);
    result.lines.push("Nothing of this drift could be codified, so there is no pull request:", "", ...why);
    return result;
  }
  const pr = await ensureDriftPr({
    octokit,
    owner,
    repo,
    target: target.name,
    mode: "codify",
    fingerprint: report.fingerprint,
    base: params.base,
    ...(params.found ? { found: params.found } : {}),
    files: codify.files,
    title: `undrift: codify drift of ${target.name} from ${params.cluster}`,
    body: withHidden(params.hidden, codifyPrBody({ report, codify, cluster: params.cluster })),
    commitMessage: `undrift: codify drift of ${target.name} from ${params.cluster}\n\nRevision scanned: ${report.revision}`,
    labels: params.pullRequests.labels,
    reviewers: params.pullRequests.reviewers,
  });
  recordPrAction(result, pr);
  if (pr.number !== undefined) result.pullRequest = { number: pr.number, ...(pr.url ? { url: pr.url } : {}) };
  result.lines.push(`Pull request: #${pr.number ?? "?"} ${pr.url ?? ""}`.trimEnd());
  if (codify.notCodified.length > 0)
    result.lines.push(`${codify.notCodified.length} object(s) could not be codified; the pull request lists why.`);
  for (const warning of pr.warnings) result.lines.push(`Warning: ${warning}`);
  return result;
}
