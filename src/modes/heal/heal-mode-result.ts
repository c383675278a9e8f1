// What a heal did, for the scan to audit and to say in its check run: one
// entry per healed, unhealed, fought and pruned (or refused) object, and the
// check run's lines about them.
import { isDeletion, type ObjectRecord } from "../../model/change-set.ts";
import { objectLabel } from "../../model/object-label.ts";
import { refOf } from "../../model/ref-of.ts";
import type { FightIgnorePr, FoughtObject, HealedObject } from "../../report/app/heal-sections.ts";
import type { ModeResult } from "../mode-result.ts";

export function healModeResult(params: {
  healed: HealedObject[];
  fought: FoughtObject[];
  pruned: ObjectRecord[];
  /** The ignore pull request the fights opened or updated, if any. */
  ignore?: FightIgnorePr & { outcome: string; fields: string[]; managers: string[] };
}): ModeResult {
  const { healed, fought, pruned, ignore } = params;
  const ok = healed.filter((h) => h.action === "created" || h.action === "configured");
  const failed = healed.filter((h) => h.action === "failed" || h.action === "skipped");
  const fieldsOf = (object: HealedObject["object"], paths: Array<{ path: string }>) =>
    paths.map((f) => `${object.kind}/${object.metadata.namespace ?? ""}/${object.metadata.name}:${f.path}`);
  const managersOf = (list: Array<{ manager?: string }>) => [
    ...new Set(list.flatMap((f) => (f.manager ? [f.manager] : []))),
  ];
  // One audit entry about one object and the fields concerned, with who had changed them.
  const entry = (event: string, summary: string, object: HealedObject["object"], fields: HealedObject["fields"]) => ({
    event,
    summary,
    objects: [objectLabel(refOf(object))],
    fields: fieldsOf(object, fields),
    managers: managersOf(fields),
  });
  const done: ModeResult["done"] = [];
  for (const h of ok) done.push(entry("heal", `healed ${objectLabel(refOf(h.object))}`, h.object, h.fields));
  for (const h of failed) {
    done.push(entry("heal-failed", `could not heal ${objectLabel(refOf(h.object))}`, h.object, h.fields));
  }
  for (const f of fought) {
    const paths = f.fields.map((x) => x.path).join(", ");
    done.push(entry("heal-stopped", `stopped healing ${paths} of ${objectLabel(refOf(f.object))}`, f.object, f.fields));
  }
  if (ignore && (ignore.outcome === "created" || ignore.outcome === "updated")) {
    done.push({
      event: ignore.outcome === "created" ? "ignore-pr-opened" : "ignore-pr-updated",
      summary: `${ignore.outcome} pull request #${ignore.number ?? "?"}`,
      ...(ignore.url ? { url: ignore.url } : {}),
      fields: ignore.fields,
      managers: ignore.managers,
    });
  }
  const deleted = pruned.filter(isDeletion);
  const kept = pruned.filter((r) => !isDeletion(r));
  for (const r of deleted) {
    const summary = r.action === "deleting" ? `pruned ${objectLabel(r)} (still deleting)` : `pruned ${objectLabel(r)}`;
    done.push({ event: "prune", summary, objects: [objectLabel(r)] });
  }
  for (const r of kept.filter((k) => k.action === "failed" || k.guard !== "not-requested")) {
    done.push({ event: "prune-refused", summary: `did not prune ${objectLabel(r)}`, objects: [objectLabel(r)] });
  }
  const lines: string[] = [];
  if (deleted.length > 0)
    lines.push(
      `Pruned ${deleted.length} orphan(s): ${deleted.map((r) => `${objectLabel(r)}${r.action === "deleting" ? " (still deleting)" : ""}`).join(", ")}.`,
    );
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
      `Healing stopped for ${f.fields.map((x) => `\`${x.path}\` (changed back by \`${x.manager}\`)`).join(", ")} of ${objectLabel(refOf(f.object))}: a fight; ${ignore?.url ? `pull request #${ignore.number} adds the \`ignoreDifferences\` rule that ends it.` : "the tracking issue has the `ignoreDifferences` rule that ends it."}`,
    );
  }
  return { done, lines };
}
