// The body of a target's ignore pull request: what the rule hides from now on
// (objects and fields, as the scan with the edited config proved), how (by
// pointer or by the controller that writes the field), who asked for each, the
// rules as written, and what was asked for but cannot be hidden. The ticks it
// was built from ride along in a hidden comment, so a later tick adds to the
// same pull request instead of replacing it. Names, pointers and managers only:
// never a value.
import { stringify } from "yaml";
import { objectLabel } from "../../model/object-label.ts";
import type { IgnorePlan, IgnoreTick } from "../../plan/ignore/plan-ignore-rule.ts";
import { writtenRule } from "../../plan/ignore/plan-ignore-rule.ts";
import type { IgnoreProof } from "../../plan/ignore/prove-ignore.ts";
import { describeTick } from "./ignore-refusals.ts";

/** A tick and who asked for it. */
export interface RequestedTick extends IgnoreTick {
  requestedBy: string;
}

const TICKS_START = "<!-- undrift:ignore-ticks ";
const TICKS_END = " -->";

export function ignorePrBody(params: {
  target: string;
  cluster: string;
  file: string;
  revision: string;
  plan: IgnorePlan;
  proof: IgnoreProof;
  ticks: readonly RequestedTick[];
}): string {
  const { plan, proof, target } = params;
  const who = (tick: IgnoreTick) =>
    [...new Set(params.ticks.filter((t) => sameTick(t, tick)).map((t) => asker(t.requestedBy)))].join(", ");
  const how = plan.planned.map((p) => {
    const by = p.by === "manager" ? `every field \`${p.value}\` writes` : `\`${p.value}\``;
    const asked = who(p.tick);
    const what = p.tick.path ? describeTick(p.tick) : `\`${p.path}\` of ${describeTick(p.tick)} (the whole object)`;
    return `- ${what}: by ${by}${asked ? `, asked by ${asked}` : ""}`;
  });
  const hidden = proof.hidden.map(
    (h) => `- \`${objectLabel(h.object)}\`: ${h.paths.map((p) => `\`${p}\``).join(", ")}`,
  );
  const rules = plan.changed.map((i) => writtenRule(plan.rules[i]!));
  const lines = [
    `This pull request adds to target \`${target}\`'s \`ignoreDifferences\` in \`${params.file}\`. Once it is merged, undrift no longer counts these fields as drift on \`${params.cluster}\` (nor heals, reverts or codifies them):`,
    "",
    ...hidden,
    "",
    "### Why",
    "",
    ...how,
    "",
    `Proved before this pull request was opened: \`${params.cluster}\` was scanned again at \`${params.revision.slice(0, 12)}\` with the edited config; these fields no longer count, and nothing else the rules reach changed.`,
    "",
    "### The rules",
    "",
    "```yaml",
    stringify({ ignoreDifferences: rules }).trimEnd(),
    "```",
  ];
  if (plan.refused.length > 0) {
    lines.push("", "### Not ignored", "");
    for (const r of plan.refused) lines.push(`- ${describeTick(r.tick)}: ${r.reason}`);
  }
  lines.push("", formatTicks(params.ticks));
  return lines.join("\n");
}

/** `@alice`, or undrift itself as written. */
const asker = (requestedBy: string) => (/^[A-Za-z0-9-]+$/.test(requestedBy) ? `@${requestedBy}` : requestedBy);

export function sameTick(a: IgnoreTick, b: IgnoreTick): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    (a.namespace ?? "") === (b.namespace ?? "") &&
    a.name === b.name &&
    a.path === b.path
  );
}

/** The ticks as a hidden comment; `>` is escaped so no name or pointer can end the comment early. */
function formatTicks(ticks: readonly RequestedTick[]): string {
  return `${TICKS_START}${JSON.stringify(ticks).replace(/>/g, "\\u003e").replace(/--/g, "-\\u002d")}${TICKS_END}`;
}

/** The ticks an earlier ignore pull request body carries; none when it has no such comment or it does not read. */
export function readTicks(body: string | null | undefined): RequestedTick[] {
  const start = (body ?? "").indexOf(TICKS_START);
  if (start < 0) return [];
  const from = start + TICKS_START.length;
  const end = body!.indexOf(TICKS_END, from);
  try {
    const parsed: unknown = JSON.parse(body!.slice(from, end));
    return Array.isArray(parsed) ? parsed.filter(isTick) : [];
  } catch {
    // A body someone edited by hand: its ticks are lost, the new ones still count.
    return [];
  }
}

function isTick(value: unknown): value is RequestedTick {
  const t = value as Partial<RequestedTick> | null;
  return (
    typeof t === "object" &&
    t !== null &&
    typeof t.apiVersion === "string" &&
    typeof t.kind === "string" &&
    typeof t.name === "string" &&
    typeof t.requestedBy === "string" &&
    (t.namespace === undefined || typeof t.namespace === "string") &&
    (t.path === undefined || typeof t.path === "string")
  );
}
