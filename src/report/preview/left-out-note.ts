// The closing line of a preview that could not show everything: how many
// objects, of which targets, why, and where to read the rest.
import { codeSpan } from "../markdown-escape.ts";

const TARGETS_NAMED = 10;

/** `**… 2,345 objects not shown** (in `apps`, `infra`): why. where` */
export function leftOutNote(params: { objects: number; targets: string[]; why: string; where: string }): string {
  const { objects, targets, why, where } = params;
  const named = targets.slice(0, TARGETS_NAMED).map((t) => codeSpan(t, { max: 100 }));
  if (targets.length > TARGETS_NAMED) named.push(`${targets.length - TARGETS_NAMED} more`);
  const count =
    objects > 0
      ? `${objects.toLocaleString("en-US")} ${objects === 1 ? "object" : "objects"} not shown`
      : "Lists not shown";
  const of = named.length > 0 ? ` (in ${named.join(", ")})` : "";
  return `**… ${count}**${of}: ${why}. ${where}`;
}
