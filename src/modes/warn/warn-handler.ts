// Warn: the target's tracking issue (warn-drift.ts) reports the warn share,
// and the heal share beside it. When heal is there, heal files the issue with
// what it healed above the report (heal-handler.ts calls warn's act), so warn
// has nothing of its own to do; with no report for the issue, neither.
import type { Renderer } from "../../desired/render-target.ts";
import type { DriftReport } from "../../model/types.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { warnDrift } from "./warn-drift.ts";

export interface WarnPlan {
  /** What the issue reports. */
  report: DriftReport;
  /** Markdown sections to put above the report (what heal did). */
  sections?: string[];
  /** The renderer the target used: helm output gets no codify boxes. */
  renderer: Renderer;
}

export const warnHandler: ModeHandler<WarnPlan> = {
  plan(_share, context) {
    if (context.shares.some((s) => s.mode === "heal") || !context.issueReport) return undefined;
    return { report: context.issueReport, renderer: context.scan.renderer };
  },
  act(plan, context) {
    const { deps, octokit, owner, repo, target } = context;
    return warnDrift({ deps, octokit, owner, repo, target, ...plan });
  },
};
