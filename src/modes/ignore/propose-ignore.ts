// Ticked fields of a scan turned into the target's ignore pull request on
// `undrift/ignore/<target>`, opened or updated in place:
//   1. the config as this repository writes it (a config that `_extends`
//      another is refused: the rule would land in a file undrift cannot see)
//   2. the open ignore PR, whose earlier ticks are kept beside the new ones
//   3. the narrowest rule for every tick (plan/ignore), written into the file
//      keeping its comments and layout (remediate/ignore)
//   4. the same ticks on the same base as the open PR: nothing is written
//   5. the proof: the target scanned again, on the real cluster, with the edited
//      config; a tick it still reports, or anything new on the objects the rules
//      reach, means no pull request, and says why
//   6. the pull request, whose body says what the rule hides from now on and who asked
// GitHub requests (measured in test/api-server/app-ignore.test.ts): the same
// ticks again 1 (the PR lookup); a first PR 5 (lookup, tree, commit, branch, PR;
// +1 labels, +1 reviewers); an update 5 (lookup, tree, commit, branch move, PR edit).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { CONFIG_FILES, loadConfig } from "../../config/load-config.ts";
import { pickTarget } from "../../config/pick-target.ts";
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { ensureDriftPr } from "../../github/ensure-drift-pr.ts";
import { findDriftPr } from "../../github/find-drift-pr.ts";
import { shortHash } from "../../model/short-hash.ts";
import { type IgnorePlan, planIgnoreRule } from "../../plan/ignore/plan-ignore-rule.ts";
import { type IgnoreProof, proveIgnore } from "../../plan/ignore/prove-ignore.ts";
import { editIgnoreRules } from "../../remediate/ignore/edit-ignore-rules.ts";
import { ignorePrBody, type RequestedTick, readTicks, sameTick } from "../../report/app/ignore-pr-body.ts";
import { describeTick, ignoreRefusals } from "../../report/app/ignore-refusals.ts";
import { readMarker } from "../../report/markers.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { ModeContext } from "../mode-handler.ts";
import type { IgnoreOutcome } from "./ignore-outcome.ts";

/** What a proposal needs of the job that asks: the repository, the snapshot it scanned, and a scan again. */
export interface IgnoreContext extends Pick<ModeContext, "octokit" | "owner" | "repo" | "base" | "repoDir" | "target"> {
  /** The target scanned again on its cluster's shared session, with `config` in place of the snapshot's. */
  rescan(config: RepoConfig, target: TargetConfig): Promise<ScanResult>;
}

export async function proposeIgnore(params: {
  context: IgnoreContext;
  /** The scan the ticks were judged on: the target's whole report, with the config as it is. */
  scan: ScanResult;
  ticks: readonly RequestedTick[];
}): Promise<IgnoreOutcome> {
  const { context, scan } = params;
  const { octokit, owner, repo, base, target } = context;

  // 1-4. The rules, the edited file, and whether the open PR already proposes them.
  const planned = await planProposal({ context, scan, ticks: params.ticks });
  if ("outcome" in planned) return planned;
  const { own, config, edited, after, open, ticks, plan, fingerprint, summary } = planned;

  // 5. The proof on the cluster: the scan again, with the edited config.
  const rules = plan.changed.map((i) => plan.rules[i]!);
  const again = await context.rescan(edited, pickTarget(edited, target.name));
  const proof = proveIgnore({ before: scan.report, after: again.report, planned: plan.planned, rules });
  if (proof.still.length + proof.appeared.length > 0) return notProved(proof, plan, summary);

  // 6. The pull request.
  const pr = await ensureDriftPr({
    octokit,
    owner,
    repo,
    target: target.name,
    mode: "ignore",
    fingerprint,
    found: { pr: open },
    base,
    files: [{ file: own.file, before: own.text, after }],
    title: `undrift: ignore noise of ${target.name} on ${target.cluster}`,
    body: ignorePrBody({
      target: target.name,
      cluster: target.cluster,
      file: own.file,
      revision: base.sha,
      plan,
      proof,
      ticks,
    }),
    commitMessage: `undrift: ignore noise of ${target.name} on ${target.cluster}\n\nAsked by: ${[...new Set(ticks.map((t) => t.requestedBy))].join(", ")}\nRevision scanned: ${base.sha}`,
    labels: config.pullRequests.labels,
    reviewers: config.pullRequests.reviewers,
  });
  const action = pr.action === "created" ? "Opened" : pr.action === "updated" ? "Updated" : "Kept";
  return {
    outcome: pr.action,
    ...(pr.number !== undefined ? { number: pr.number } : {}),
    ...(pr.url ? { url: pr.url } : {}),
    fields: hiddenFields(proof),
    managers: summary.managers,
    lines: [
      `${action} pull request #${pr.number ?? "?"} ${pr.url ?? ""}`.trimEnd(),
      ...ignoreRefusals(plan),
      ...pr.warnings,
    ],
  };
}

/**
 * Steps 1 to 4: the config as this repository writes it, the open ignore PR's ticks beside the new ones, the
 * narrowest rules written into the file, and the outcome when that is already what the open PR proposes (or
 * when nothing can be proposed).
 */
async function planProposal(params: { context: IgnoreContext; scan: ScanResult; ticks: readonly RequestedTick[] }) {
  const { context, scan } = params;
  const { octokit, owner, repo, target } = context;
  const refused = (lines: string[]): IgnoreOutcome => ({ outcome: "refused", fields: [], managers: [], lines });

  // 1. The config as written here.
  const own = await ownConfig(context.repoDir);
  if (!own) return refused([".github/undrift.yml is not in the repository, so there is no file to add a rule to."]);
  if (own.extends)
    return refused([
      `${own.file} extends another config (_extends): add the rule by hand where target \`${target.name}\` is written.`,
    ]);
  const config = loadConfig(own.text, own.file);
  const written = pickTarget(config, target.name);

  // 2. The open ignore PR and the ticks it already carries.
  const open = await findDriftPr({ octokit, owner, repo, target: target.name, mode: "ignore" });
  const ticks = [...readTicks(open?.body)];
  for (const tick of params.ticks)
    if (!ticks.some((t) => sameTick(t, tick) && t.requestedBy === tick.requestedBy)) ticks.push(tick);

  // 3. The rules, and the file with them.
  const isController = (manager: string) => manager !== target.fieldManager && !scan.policy.isHuman(manager);
  const plan = planIgnoreRule({ report: scan.report, rules: written.ignoreDifferences, ticks, isController });
  if (plan.changed.length === 0) return refused(ignoreRefusals(plan));
  const after = editIgnoreRules({
    file: own.file,
    text: own.text,
    target: target.name,
    before: written.ignoreDifferences,
    after: plan.rules,
    changed: plan.changed,
  });
  const edited = loadConfig(after, own.file);

  // 4. The same edit of the same file is what the open PR already proposes.
  const fingerprint = shortHash(`${after}\u0000${JSON.stringify(ticks)}`);
  const summary = summarizePlan(plan);
  if (open && readMarker(open.body, "pr")?.fingerprint === fingerprint)
    return {
      outcome: "unchanged",
      number: open.number,
      url: open.html_url,
      ...summary,
      lines: [`Pull request #${open.number} already proposes this rule.`, ...ignoreRefusals(plan)],
    } satisfies IgnoreOutcome;
  return { own, config, edited, after, open, ticks, plan, fingerprint, summary };
}

/** The rule did not prove out: a tick the scan with it still reports, or drift it would change besides. */
function notProved(
  proof: IgnoreProof,
  plan: IgnorePlan,
  summary: { fields: string[]; managers: string[] },
): IgnoreOutcome {
  return {
    outcome: "not-proved",
    ...summary,
    lines: [
      ...proof.still.map(
        (s) =>
          `The rule does not hide ${describeTick({ ...s.object, path: s.path })}: the scan with it still reports it, so there is no pull request.`,
      ),
      ...proof.appeared.map(
        (a) =>
          `The rule would change other drift: ${describeTick({ ...a.object, path: a.path })} appears in the scan with it, so there is no pull request.`,
      ),
      ...ignoreRefusals(plan),
    ],
  };
}

/** The config file of the snapshot and its text, or undefined when there is none. */
async function ownConfig(dir: string): Promise<{ file: string; text: string; extends: boolean } | undefined> {
  for (const file of CONFIG_FILES) {
    const text = await readFile(join(dir, file), "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text === undefined) continue;
    const data: unknown = parse(text);
    return { file, text, extends: typeof data === "object" && data !== null && "_extends" in data };
  }
  return undefined;
}

function summarizePlan(plan: IgnorePlan): { fields: string[]; managers: string[] } {
  return {
    fields: plan.planned.map((p) => describeField(p.tick, p.path)),
    managers: [...new Set(plan.planned.filter((p) => p.by === "manager").map((p) => p.value))],
  };
}

function hiddenFields(proof: IgnoreProof): string[] {
  return proof.hidden.flatMap((h) => h.paths.map((p) => describeField(h.object, p)));
}

/** `Deployment/shop/web:/spec/replicas`, as the audit stream names fields. */
const describeField = (ref: { kind: string; namespace?: string; name: string }, path: string) =>
  `${[ref.kind, ref.namespace, ref.name].filter(Boolean).join("/")}:${path}`;
