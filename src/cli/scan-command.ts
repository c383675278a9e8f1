// undrift scan --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--output text|json|markdown]
import type { DriftReport } from "../model/types.ts";
import { renderJson } from "../report/render-json.ts";
import { renderMarkdown } from "../report/render-markdown.ts";
import { renderText } from "../report/render-text.ts";
import { runScan } from "../stages/scan/scan-target.ts";
import { scan, scanOutputs } from "./command-specs.ts";
import { parseTargetArgs } from "./parse-target-args.ts";

type Output = (typeof scanOutputs)[number];

/** 0 in sync, 1 drift found, 2 when nothing could be compared. */
export function exitCodeOf(report: DriftReport): number {
  const { drifted, missing, orphaned, inSync } = report.summary;
  if (drifted + missing + orphaned > 0) return 1;
  return inSync === 0 && report.problems.length > 0 ? 2 : 0;
}

export function formatReport(report: DriftReport, output: Output): string {
  if (output === "json") return renderJson(report);
  if (output === "markdown") return `${renderMarkdown(report).join("\n\n")}\n`;
  return renderText(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR });
}

export async function scanCommand(argv: string[]): Promise<number> {
  const args = parseTargetArgs(argv, { options: scan.flags, outputs: scanOutputs });
  const output = args.output;
  const { report, skipped } = await runScan({
    repoDir: args.repo,
    targetName: args.target,
    kubeConfig: args.kubeConfig(),
  });
  if (process.env.UNDRIFT_DEBUG) {
    for (const s of skipped) process.stderr.write(`debug: skipped ${s.file}#${s.document}: ${s.reason}\n`);
    const stats = report.stats!;
    process.stderr.write(
      `debug: ${stats.objects} objects, ${stats.requests} API requests (${stats.dryRuns} dry-runs), ${stats.durationMs} ms\n`,
    );
  }
  process.stdout.write(formatReport(report, output));
  return exitCodeOf(report);
}
