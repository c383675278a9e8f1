// The heal side of a scan: drifted and missing objects get Git applied at once,
// through the CLI's revert (planRevert + applyPlan; fields people changed by
// hand pass to undrift first), then the target's tracking issue says what was
// healed: which object, which fields, who had changed them.
// A field a non-human manager keeps changing back is a fight (heal-fights.ts):
// after K heals within the window it is no longer healed (an object whose only
// drift is such fields is not applied; other objects are), and the issue gives
// the ignoreDifferences rule that would end the fight, ready to paste.
// Orphans are pruned when the target's prune (or the first matching rule's)
// is true, through the CLI's planPrune + pruneOrphans with all their guards;
// with preview or false they are only listed. The issue says which were
// deleted and which were not, and why.

import type { TargetConfig } from "../config/schema.ts";
import { removePointer } from "../drift/edit-object.ts";
import type { GitHubClient } from "../github/github-client.ts";
import { groupOf, keyString, objectKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import { refOf } from "../model/ref-of.ts";
import type { Change, DriftReport, ResourceReport } from "../model/types.ts";
import { FIGHT_HEALS, FIGHT_WINDOW_MS, type FightPolicy } from "../plan/fight-policy.ts";
import { type PlannedObject, planRevert } from "../plan/revert/plan-revert.ts";
import { respectedIgnoreRules } from "../plan/revert/respect-ignored.ts";
import { applyPlan } from "../remediate/revert/apply-plan.ts";
import { type FoughtObject, type HealedObject, healSections, pruneSections } from "../report/app/heal-sections.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";
import { healFights } from "../state/heal-fights.ts";
import type { ModeResult } from "./mode-result.ts";
import { pruneTargetOrphans } from "./prune-target-orphans.ts";
import { warnDrift } from "./warn-drift.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function healDrift(params: {
  deps: WorkerDeps;
  octokit: GitHubClient;
  owner: string;
  repo: string;
  /** The heal share of the scan (mode-shares.ts): only its objects are applied and pruned. */
  scan: ScanResult;
  target: TargetConfig;
  /** What the tracking issue reports: the heal share with the warn share beside it; default the scan's report. */
  issueReport?: DriftReport;
}): Promise<ModeResult> {
  const { deps, scan, target } = params;
  const { report, policy } = scan;
  const fight: FightPolicy = {
    heals: deps.healFights?.heals ?? FIGHT_HEALS,
    windowMs: deps.healFights?.windowMs ?? FIGHT_WINDOW_MS,
  };
  const fights = healFights({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: `${params.owner}/${params.repo}`,
    target: target.name,
    policy: fight,
  });
  // A change made by a program (not a person, not undrift's own applier) is what can fight back.
  const fighter = (change: Change) =>
    change.manager !== undefined && change.manager !== target.fieldManager && !policy.isHuman(change.manager)
      ? change.manager
      : undefined;
  const reported = new Map<string, ResourceReport>();
  for (const r of report.resources) {
    reported.set(
      keyString({ group: groupOf(r.apiVersion), kind: r.kind, namespace: r.namespace ?? "", name: r.name }),
      r,
    );
  }

  // 1. What to apply: drifted and missing objects, less the fields healing has stopped for.
  const plan = planRevert({ desired: scan.desired, pairings: scan.pairings });
  const objects: PlannedObject[] = [];
  const fought: FoughtObject[] = [];
  for (const planned of plan.objects) {
    if (planned.status !== "drifted" && planned.status !== "missing") continue;
    const key = keyString(objectKey(planned.desired.object));
    const changes = reported.get(key)?.changes ?? [];
    const stopped: FoughtObject["fields"] = [];
    for (const change of changes) {
      const manager = fighter(change);
      if (!manager) continue;
      const count = await fights.count({ object: key, path: change.path }, manager);
      if (count >= fight.heals) stopped.push({ path: change.path, manager, heals: count });
    }
    if (stopped.length > 0) fought.push({ object: planned.desired.object, fields: stopped });
    const stoppedPaths = new Set(stopped.map((f) => f.path));
    const rest = planned.changes.filter((path) => !stoppedPaths.has(path));
    if (planned.status === "drifted" && rest.length === 0) continue;
    if (stoppedPaths.size === 0) {
      objects.push(planned);
      continue;
    }
    // Left out of the apply, the fought fields stay with the manager that last wrote them.
    const object = structuredClone(planned.desired.object);
    for (const path of stoppedPaths) removePointer(object, path);
    objects.push({ ...planned, desired: { ...planned.desired, object }, changes: rest });
  }

  // 2. The apply, as `undrift revert` does it.
  const { entries } = objects.length
    ? await applyPlan({
        client: scan.client,
        index: scan.index,
        objects,
        fieldManager: target.fieldManager,
        force: target.force,
        isHuman: (manager) => policy.isHuman(manager),
        dryRun: false,
        wait: "dependencies",
        deadline: Date.now() + target.timeoutMs,
        ignoreRules: respectedIgnoreRules(target),
        jq: policy.jq,
      })
    : { entries: [] };

  // 3. Each heal of a field a program had changed counts towards a fight.
  const healed: HealedObject[] = [];
  for (const entry of entries) {
    const object = entry.planned.desired.object;
    const key = keyString(objectKey(object));
    const done = entry.record.action === "created" || entry.record.action === "configured";
    const paths = new Set(entry.planned.changes);
    const fields: HealedObject["fields"] = [];
    for (const change of reported.get(key)?.changes ?? []) {
      if (!paths.has(change.path)) continue;
      const manager = fighter(change);
      const count = done && manager ? await fights.record({ object: key, path: change.path }, manager) : undefined;
      fields.push({
        path: change.path,
        ...(change.manager ? { manager: change.manager } : {}),
        ...(count !== undefined ? { heals: count } : {}),
      });
    }
    healed.push({
      object,
      action: entry.record.action,
      fields,
      ...(entry.record.reason ? { reason: entry.record.reason } : {}),
    });
  }

  // 4. Orphans: deleted only when prune is true for them, and every guard lets them go.
  const pruned = await pruneTargetOrphans({
    client: scan.client,
    index: scan.index,
    target,
    desired: scan.desired.map((d) => d.object),
    skippedDocuments: scan.skipped,
    orphans: plan.orphans,
  });

  // 5. The tracking issue, with what was healed, pruned, and what no longer is.
  const sections = [...healSections({ healed, fought, policy: fight }), ...pruneSections(pruned)];
  const result = await warnDrift({ ...params, report: params.issueReport ?? report, sections });
  const ok = healed.filter((h) => h.action === "created" || h.action === "configured");
  const failed = healed.filter((h) => h.action === "failed" || h.action === "skipped");
  const fieldsOf = (object: HealedObject["object"], paths: Array<{ path: string }>) =>
    paths.map((f) => `${object.kind}/${object.metadata.namespace ?? ""}/${object.metadata.name}:${f.path}`);
  const managersOf = (list: Array<{ manager?: string }>) => [
    ...new Set(list.flatMap((f) => (f.manager ? [f.manager] : []))),
  ];
  const done: ModeResult["done"] = [];
  for (const h of ok) {
    done.push({
      event: "heal",
      summary: `healed ${objectLabel(refOf(h.object))}`,
      objects: [objectLabel(refOf(h.object))],
      fields: fieldsOf(h.object, h.fields),
      managers: managersOf(h.fields),
    });
  }
  for (const h of failed) {
    done.push({
      event: "heal-failed",
      summary: `could not heal ${objectLabel(refOf(h.object))}`,
      objects: [objectLabel(refOf(h.object))],
      fields: fieldsOf(h.object, h.fields),
      managers: managersOf(h.fields),
    });
  }
  for (const f of fought) {
    done.push({
      event: "heal-stopped",
      summary: `stopped healing ${f.fields.map((x) => x.path).join(", ")} of ${objectLabel(refOf(f.object))}`,
      objects: [objectLabel(refOf(f.object))],
      fields: fieldsOf(f.object, f.fields),
      managers: managersOf(f.fields),
    });
  }
  const deleted = pruned.filter((r) => r.action === "deleted");
  const kept = pruned.filter((r) => r.action !== "deleted");
  for (const r of deleted) {
    done.push({ event: "prune", summary: `pruned ${objectLabel(r)}`, objects: [objectLabel(r)] });
  }
  for (const r of kept.filter((k) => k.action === "failed" || k.guard !== "not-requested")) {
    done.push({ event: "prune-refused", summary: `did not prune ${objectLabel(r)}`, objects: [objectLabel(r)] });
  }
  const lines: string[] = [];
  if (deleted.length > 0)
    lines.push(`Pruned ${deleted.length} orphan(s): ${deleted.map((r) => objectLabel(r)).join(", ")}.`);
  if (kept.length > 0)
    lines.push(`Not pruned: ${kept.map((r) => `${objectLabel(r)} (${r.reason ?? r.action})`).join("; ")}.`);
  if (ok.length > 0)
    lines.push(
      `Healed: Git was applied to ${ok.length} object(s): ${ok.map((h) => objectLabel(refOf(h.object))).join(", ")}.`,
    );
  if (failed.length > 0)
    lines.push(
      `Not healed: ${failed.map((h) => `${objectLabel(refOf(h.object))} (${h.reason ?? h.action})`).join("; ")}.`,
    );
  for (const f of fought) {
    lines.push(
      `Healing stopped for ${f.fields.map((x) => `\`${x.path}\` (changed back by \`${x.manager}\`)`).join(", ")} of ${objectLabel(refOf(f.object))}: a fight; the tracking issue has the \`ignoreDifferences\` rule that ends it.`,
    );
  }
  return { done: [...done, ...result.done], lines: [...lines, ...result.lines] };
}
