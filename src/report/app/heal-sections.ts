// What heal says on the tracking issue, above the drift report: the objects it
// applied Git to (fields, and who had changed them), and the fields it stopped
// healing because a program keeps changing them back, each object with the
// ignoreDifferences rule (Argo CD's shape, as `.github/undrift.yml` takes it)
// that would end the fight, and the ignore pull request that adds it (or why
// there is none); then the orphans it pruned and those it left, with
// why. Names, pointers and managers only: never a value.
import { stringify } from "yaml";
import { type Action, isDeletion, type ObjectRecord } from "../../model/change-set.ts";
import { groupOf } from "../../model/object-key.ts";
import { objectLabel } from "../../model/object-label.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import type { FightPolicy } from "../../plan/fight-policy.ts";

export interface HealedObject {
  object: KubeObject;
  action: Action;
  reason?: string;
  /** The fields applied; `heals`: how many heals undoing that (non-human) manager fall within the window. */
  fields: Array<{ path: string; manager?: string; heals?: number }>;
}

export interface FoughtObject {
  object: KubeObject;
  fields: Array<{ path: string; manager: string; heals: number }>;
}

/** The ignore pull request a fight opened, or why there is none. */
export interface FightIgnorePr {
  number?: number;
  url?: string;
  lines: string[];
}

export function healSections(params: {
  healed: HealedObject[];
  fought: FoughtObject[];
  policy: FightPolicy;
  ignore?: FightIgnorePr;
}): string[] {
  const { healed, fought, policy, ignore } = params;
  const sections: string[] = [];
  const window = duration(policy.windowMs);
  if (healed.length > 0) {
    const lines = healed.map((h) => {
      const what = h.action === "created" || h.action === "configured" ? h.action : `${h.action}: ${h.reason ?? ""}`;
      const fields = h.fields.map((f) => {
        const who = f.manager ? ` (changed by \`${f.manager}\`)` : "";
        const count = f.heals !== undefined ? `, healed ${f.heals} time(s) within ${window}` : "";
        return `\`${f.path}\`${who}${count}`;
      });
      return `- \`${objectLabel(refOf(h.object))}\` (${what.trim()})${fields.length ? `: ${fields.join(", ")}` : ""}`;
    });
    sections.push(["### Healed", "", "undrift applied Git to these objects in this scan:", "", ...lines].join("\n"));
  }
  for (const f of fought) {
    const { object } = f;
    const rule = {
      ignoreDifferences: [
        {
          group: groupOf(object.apiVersion),
          kind: object.kind,
          name: object.metadata.name,
          ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
          jsonPointers: f.fields.map((x) => x.path),
        },
      ],
    };
    const fields = f.fields.map((x) => `\`${x.path}\` (changed back by \`${x.manager}\` after ${x.heals} heals)`);
    sections.push(
      [
        `### Healing stopped: a fight over \`${objectLabel(refOf(object))}\``,
        "",
        `${fields.join(", ")}: ${policy.heals} heals or more within ${window}, so undrift no longer heals ${f.fields.length > 1 ? "these fields" : "this field"}; the rest of the target is still healed.`,
        ...(ignore?.url
          ? [
              `To end the fight, let that manager own the field: pull request #${ignore.number} (${ignore.url}) adds the \`ignoreDifferences\` rule to the target in \`.github/undrift.yml\`; merge it.`,
            ]
          : [
              "To end the fight, let that manager own the field: add this rule to the target in `.github/undrift.yml`:",
              "",
              "```yaml",
              stringify(rule).trimEnd(),
              "```",
              ...(ignore ? ["", ...ignore.lines] : []),
            ]),
      ].join("\n"),
    );
  }
  return sections;
}

/** The orphans heal deleted, and those it left (a guard held them back, or prune is preview or false), with why. */
export function pruneSections(records: ObjectRecord[]): string[] {
  const deleted = records.filter(isDeletion);
  const kept = records.filter((r) => !isDeletion(r));
  const sections: string[] = [];
  if (deleted.length > 0) {
    // An object still held by a finalizer says so: it is being deleted, not gone.
    const lines = deleted.map(
      (r) =>
        `- \`${objectLabel(r)}\`${r.action === "deleting" ? " still deleting" : ""}${r.reason ? ` (${r.reason})` : ""}`,
    );
    sections.push(["### Pruned", "", "undrift deleted these orphans in this scan:", "", ...lines].join("\n"));
  }
  if (kept.length > 0) {
    const lines = kept.map((r) => `- \`${objectLabel(r)}\`: ${r.reason ?? r.action}`);
    sections.push(["### Not pruned", "", "These orphans were left on the cluster:", "", ...lines].join("\n"));
  }
  return sections;
}

/** `1h`, `90m`, `45s`. */
function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 1000)}s`;
}
