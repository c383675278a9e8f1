// Which mode handles each object of a scan: the first of the target's `rules`
// that names a mode and whose match fits the object (its desired or its live
// side) gives it; every other object takes the target's mode. Each mode then
// gets its share of the scan: the report cut to its objects (summary and
// fingerprint computed again, so each pull request and issue follows its own
// drift), and the pairings cut the same way. In-sync objects stay in every
// share: they are no one's work. A target whose rules send nothing elsewhere
// gets its scan back as it was.
import { ruleMatches } from "../config/rule-matches.ts";
import type { Mode, TargetConfig } from "../config/schema.ts";
import { findingOf, type Pairing } from "../drift/build-report.ts";
import { summarize } from "../drift/summarize.ts";
import { keyString, objectKey, refKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import type { DriftReport, KubeObject, ResourceReport } from "../model/types.ts";

const MODES: readonly Mode[] = ["heal", "codify", "revert", "warn"];

/** What mode shares need of a scan; the share keeps the rest of the caller's scan as it is. */
export interface ShareableScan {
  target: TargetConfig;
  report: DriftReport;
  pairings: Pairing[];
}

export interface ModeShare<S extends ShareableScan = ShareableScan> {
  mode: Mode;
  /** The scan as this mode sees it: report and pairings cut to its objects. */
  scan: S;
  /** Labels of the objects (not in sync) this mode handles. */
  objects: string[];
}

/** The mode of one object: the first rule with a mode that matches it, else the target's. */
export function objectRuleMode(target: TargetConfig, objects: Array<KubeObject | undefined>): Mode {
  const rule = target.rules.find(
    (r) => r.mode !== undefined && objects.some((o) => o !== undefined && ruleMatches(r.match, o)),
  );
  return rule?.mode ?? target.mode;
}

/**
 * One share per mode the target can use (its own and every rule's), the target's first; a mode with
 * no object still gets its share, so its pull request or issue can close when its drift is gone.
 */
export function modeShares<S extends ShareableScan>(scan: S): ModeShare<S>[] {
  const { target } = scan;
  const modeOf = new Map<string, Mode>();
  for (const p of scan.pairings) {
    const object = (p.desired?.object ?? p.live)!;
    modeOf.set(keyString(objectKey(object)), objectRuleMode(target, [p.desired?.object, p.live]));
  }
  const keyOf = (r: ResourceReport) => keyString(refKey(r));
  const used = new Set<Mode>([target.mode, ...target.rules.flatMap((r) => (r.mode ? [r.mode] : []))]);
  const modes = [target.mode, ...MODES.filter((m) => m !== target.mode && used.has(m))];
  const drifting = scan.report.resources.filter((r) => r.status !== "in-sync");
  const whole = drifting.every((r) => (modeOf.get(keyOf(r)) ?? target.mode) === target.mode);
  return modes.map((mode) => {
    const mine = (key: string, inSync: boolean) => inSync || (modeOf.get(key) ?? target.mode) === mode;
    const objects = drifting.filter((r) => mine(keyOf(r), false)).map((r) => objectLabel(r));
    if (whole && mode === target.mode) return { mode, scan, objects };
    const resources = scan.report.resources.filter((r) => mine(keyOf(r), r.status === "in-sync"));
    const pairings = scan.pairings.filter((p) => {
      const key = keyString(objectKey((p.desired?.object ?? p.live)!));
      return mine(key, isInSync(p));
    });
    return { mode, scan: { ...scan, report: cutReport(scan.report, resources), pairings }, objects };
  });
}

/** The lines the check run gives when rules sent objects to other modes than the target's. */
export function shareLines(target: TargetConfig, shares: ModeShare[]): string[] {
  if (shares.every((s) => s.mode === target.mode || s.objects.length === 0)) return [];
  return [
    "Per-object `rules` picked the mode of each object:",
    "",
    ...shares
      .filter((s) => s.objects.length > 0)
      .map((s) => `- \`${s.mode}\`: ${s.objects.map((o) => `\`${o}\``).join(", ")}`),
    "",
  ];
}

function cutReport(report: DriftReport, resources: ResourceReport[]): DriftReport {
  return { ...report, resources, ...summarize(resources) };
}

function isInSync(p: Pairing): boolean {
  return findingOf(p) === "in-sync";
}
