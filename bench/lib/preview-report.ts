// The preview benchmark's result shape, its checks of what each tool found
// against what the head commit and the drift made, and its markdown table.
import type { Injection } from "./drift.ts";
import type { HeadChange } from "./head-change.ts";
import type { PreviewOutput } from "./outputs.ts";
import { fmtInt, type RunRecord, rttLabel, type ToolResult, wallCell } from "./report.ts";

export type PreviewTool = "undrift" | "kubectl";

export const previewToolLabels: Record<PreviewTool, string> = {
  undrift: "undrift preview",
  kubectl: "kubectl diff --server-side (head)",
};

/** What kubectl diff of head's folder printed: objects it would change, and ones it would create. */
export interface KubectlDiffFound {
  change: string[];
  create: string[];
}

export interface PreviewRunRecord extends RunRecord {
  preview?: PreviewOutput;
  kubectl?: KubectlDiffFound;
}

/** One expectation: the set a tool found against the set it should have found. */
export interface PreviewCheck {
  tool: PreviewTool;
  name: string;
  expected: number;
  found: number;
  met: boolean;
  missing: string[];
  extra: string[];
}

export interface PreviewSizeResult {
  n: number;
  /** The round trip the timed tools paid (0: loopback). */
  rttMs: number;
  loadAverageBefore: number;
  /** Objects applied (N plus the Namespaces). */
  objects: number;
  target: string;
  namespaces: string[];
  applySeconds: number;
  injected: Injection[];
  head: HeadChange;
  tools: { undrift: ToolResult<"undrift">; kubectl: ToolResult<"kubectl"> };
  /** From the first run of each (every run found the same, or a note says otherwise). */
  undriftFound: PreviewOutput;
  kubectlFound: KubectlDiffFound;
  checks: PreviewCheck[];
  ratios: { kubectlOverUndriftTime: number; kubectlOverUndriftRequests: number };
  /** BENCH_PROFILE=1: where one undrift preview's CPU time went. */
  cpuProfile?: string;
  leftAfterCleanup?: number;
}

function check(tool: PreviewTool, name: string, expected: string[], found: string[]): PreviewCheck {
  const e = new Set(expected);
  const f = new Set(found);
  const missing = [...e].filter((x) => !f.has(x)).sort();
  const extra = [...f].filter((x) => !e.has(x)).sort();
  return { tool, name, expected: e.size, found: f.size, met: !missing.length && !extra.length, missing, extra };
}

/**
 * What each tool must find. Head's edits and the drift touch different objects,
 * so each object has one reason to differ. undrift: head's changes plus every
 * drifted object (the merge re-applies Git over the drift, hand-added fields
 * too), head's new objects created, its deleted ones pruned, and the drift as
 * drift-now. kubectl diff: the changes, the drift an SSA dry-run can see, the
 * new objects; nothing on deletions or on what the cluster already differs in.
 */
export function checkPreview(params: {
  head: HeadChange;
  injected: Injection[];
  undrift: PreviewOutput;
  kubectl: KubectlDiffFound;
}): PreviewCheck[] {
  const { head, injected, undrift, kubectl } = params;
  const changed = head.changed.map((c) => c.key);
  const drifted = injected.map((i) => i.key);
  const visible = injected.filter((i) => i.kubectlSees).map((i) => i.key);
  return [
    check("undrift", "change: head's changes + the drifted objects", [...changed, ...drifted], undrift.change),
    check("undrift", "create: head's new objects", head.added, undrift.create),
    check("undrift", "prune: head's deleted objects", head.deleted, undrift.prune),
    check("undrift", "prune: each would be deleted (the target has prune: true)", head.deleted, undrift.wouldDelete),
    check("undrift", "drift now (base scan): the drifted objects", drifted, undrift.driftNow),
    check(
      "kubectl",
      "change: head's changes + the drift an SSA dry-run shows",
      [...changed, ...visible],
      kubectl.change,
    ),
    check("kubectl", "create: head's new objects", head.added, kubectl.create),
  ];
}

function foundCell(r: PreviewSizeResult, tool: PreviewTool): string {
  const ok = r.checks.filter((c) => c.tool === tool).every((c) => c.met);
  const verdict = `; as expected: ${ok ? "yes" : "no"}`;
  if (tool === "kubectl") {
    const k = r.kubectlFound;
    return `${k.change.length} change, ${k.create.length} create; no prune, no drift-now${verdict}`;
  }
  const u = r.undriftFound;
  const actions = Object.entries(u.pruneActions)
    .map(([action, count]) => `${count} ${action}`)
    .join(", ");
  return `${u.change.length} change, ${u.create.length} create, ${u.prune.length} prune (${actions || "none"}), ${u.driftNow.length} drifted now${verdict}`;
}

export function previewMarkdown(results: PreviewSizeResult[]): string {
  const out: string[] = [];
  out.push(
    "| | N | round trip | wall time (s), median (min–max) | API requests (API server, quietest run / client's own count) | peak RSS (MB) | what it found |",
  );
  out.push("|---|---:|---|---:|---:|---:|---|");
  for (const r of results) {
    for (const tool of ["undrift", "kubectl"] as const) {
      const t = r.tools[tool];
      out.push(
        `| ${previewToolLabels[tool]} | ${fmtInt(r.n)} | ${rttLabel(r.rttMs)} | ${wallCell(t)} | ${fmtInt(t.serverRequests)} / ${fmtInt(t.clientRequests)} | ${t.peakRssMb.toFixed(0)} | ${foundCell(r, tool)} |`,
      );
    }
  }
  out.push("");
  out.push(
    "| N | round trip | head: changed / added / deleted | drifted (visible to kubectl) | kubectl/undrift time | kubectl/undrift requests |",
  );
  out.push("|---:|---|---|---|---:|---:|");
  for (const r of results) {
    const visible = r.injected.filter((i) => i.kubectlSees).length;
    out.push(
      `| ${fmtInt(r.n)} | ${rttLabel(r.rttMs)} | ${r.head.changed.length} / ${r.head.added.length} / ${r.head.deleted.length} | ${r.injected.length} (${visible}) | ${r.ratios.kubectlOverUndriftTime.toFixed(2)}x | ${r.ratios.kubectlOverUndriftRequests.toFixed(1)}x |`,
    );
  }
  for (const r of results) {
    out.push("", `Checks at N = ${fmtInt(r.n)}, ${rttLabel(r.rttMs)}:`);
    for (const c of r.checks) {
      const detail = c.met
        ? `${c.found} of ${c.expected}`
        : `found ${c.found}, expected ${c.expected}; missing: ${c.missing.join(", ") || "none"}; extra: ${c.extra.join(", ") || "none"}`;
      out.push(`- ${c.met ? "met" : "FAILED"}: ${previewToolLabels[c.tool]}: ${c.name} (${detail})`);
    }
    const hidden = r.injected.filter((i) => !i.kubectlSees).length;
    out.push(
      `- note: kubectl diff of head's folder shows no prunes (it cannot see the ${r.head.deleted.length} objects head deletes) and no drift-now: the drift it can see is mixed into the change${hidden ? `, and the ${hidden} hand-added fields not at all` : ""}`,
    );
    const notes = Object.values(r.tools).flatMap((t) => t.notes.map((n) => `${previewToolLabels[t.tool]}: ${n}`));
    for (const n of notes) out.push(`- note: ${n}`);
    if (r.cpuProfile) out.push("", "```", r.cpuProfile, "```");
  }
  return out.join("\n");
}
