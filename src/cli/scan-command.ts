// undrift scan --repo DIR [--target NAME | --all [--cluster NAME]] [--kubeconfig FILE] [--context NAME]
//   [--output text|json|markdown] [--color auto|always|never]

import { ClusterSession } from "../live/cluster-session.ts";
import { oneLine } from "../model/one-line.ts";
import type { DriftReport } from "../model/types.ts";
import { renderJson } from "../report/render-json.ts";
import { renderMarkdown } from "../report/render-markdown.ts";
import { renderText } from "../report/render-text.ts";
import { cliTargets } from "./cli-targets.ts";
import { clusterLabel } from "./cluster-label.ts";
import { scan, scanOutputs } from "./command-specs.ts";
import { parseTargetArgs } from "./parse-target-args.ts";
import { resolveTargets } from "./resolve-targets.ts";
import { runScan } from "./run-scan.ts";
import { worstExitCode } from "./worst-exit-code.ts";

type Output = (typeof scanOutputs)[number];

/** 0 in sync, 1 drift found, 2 when nothing could be compared. */
export function exitCodeOf(report: DriftReport): number {
  const { drifted, missing, orphaned, inSync } = report.summary;
  if (drifted + missing + orphaned > 0) return 1;
  return inSync === 0 && report.problems.length > 0 ? 2 : 0;
}

export function formatReport(
  report: DriftReport,
  output: Output,
  text: { color: boolean; cluster?: { context: string; server: string } } = { color: false },
): string {
  if (output === "json") return renderJson(report);
  if (output === "markdown") return `${renderMarkdown(report).join("\n\n")}\n`;
  return renderText(report, text);
}

/** One target of --all: its report, or the one line that says why it could not be scanned. */
type Outcome = { target: string; report: DriftReport } | { target: string; error: string };

/** Names the person behind each drifted field from the cluster's records of writes (attribute-from-redis.ts). */
export interface Attribution {
  attribute(report: DriftReport, cluster: string): Promise<DriftReport>;
  close(): void;
}

/** `attribution` is main.ts's to give, only when REDIS_URL is set: a scan without it never loads Redis' client. */
export async function scanCommand(argv: string[], deps: { attribution?: Attribution } = {}): Promise<number> {
  const records = deps.attribution;
  // Closed however the command ends, a refused flag included: an open client would keep the process alive.
  try {
    const args = parseTargetArgs(argv, { options: scan.flags, outputs: scanOutputs });
    const output = args.output;
    // Loaded at first use: a config without discover: names its targets without a cluster, and an unknown
    // --target is said before a missing kubeconfig, as always.
    let kubeConfig: ReturnType<typeof args.kubeConfig> | undefined;
    const loadedKubeConfig = () => {
      kubeConfig ??= args.kubeConfig();
      return kubeConfig;
    };
    const session = () => new ClusterSession(loadedKubeConfig());
    const choice = await resolveTargets({
      repoDir: args.repo,
      target: args.target,
      all: args.values.all,
      cluster: args.values.cluster,
      discovered: async (config) => {
        const found = await cliTargets({ config, repoDir: args.repo, session, cluster: args.values.cluster });
        for (const problem of found.problems) process.stderr.write(`undrift: ${problem}\n`);
        return found.targets.map((t) => t.name);
      },
    });
    const loaded = loadedKubeConfig();
    const text = { color: args.color, cluster: clusterLabel(loaded) };
    return await scanTargets({ args, choice, output, text, kubeConfig: loaded, records });
  } finally {
    records?.close();
  }
}

/** Each target's scan, with who changed what when REDIS_URL gives the records of writes. */
async function scanTargets(params: {
  args: ReturnType<typeof parseTargetArgs<typeof scan.flags, Output>>;
  choice: Awaited<ReturnType<typeof resolveTargets>>;
  output: Output;
  text: Parameters<typeof formatReport>[2];
  kubeConfig: ReturnType<ReturnType<typeof parseTargetArgs>["kubeConfig"]>;
  records: Attribution | undefined;
}): Promise<number> {
  const { args, choice, output, text, kubeConfig, records } = params;
  const scanOne = async (targetName: string, session?: ClusterSession) => {
    const {
      report: scanned,
      skipped,
      target,
    } = await runScan({
      repoDir: args.repo,
      targetName,
      kubeConfig,
      ...(choice.config ? { config: choice.config } : {}),
      ...(session ? { session } : {}),
    });
    if (process.env.UNDRIFT_DEBUG) debugLines(scanned, skipped);
    // The scan resolved the target: its cluster names where the records of writes are, with no second read.
    return records ? records.attribute(scanned, target.cluster) : scanned;
  };
  if (!choice.all) {
    const report = await scanOne(choice.names[0]!);
    process.stdout.write(formatReport(report, output, text));
    return exitCodeOf(report);
  }

  // --all: one session, so discovery and the LISTs of one cluster are paid once; a target that
  // fails is said on stderr with its name and the others are still scanned, as `kubectl diff -f dir` goes on.
  const session = new ClusterSession(kubeConfig);
  const outcomes: Outcome[] = [];
  let printed = 0;
  for (const target of choice.names) {
    try {
      const report = await scanOne(target, session);
      outcomes.push({ target, report });
      // Each report as it comes, a blank line between two, so a long run shows how far it got.
      if (output !== "json") process.stdout.write(`${printed++ > 0 ? "\n" : ""}${formatReport(report, output, text)}`);
    } catch (error) {
      const message = oneLine(error instanceof Error ? error.message : String(error), { fold: "breaks" });
      outcomes.push({ target, error: message });
      process.stderr.write(`${target}: ${message}\n`);
    }
  }
  if (output === "json") process.stdout.write(allJson(outcomes));
  return worstExitCode(outcomes.map((o) => ("report" in o ? exitCodeOf(o.report) : 2)));
}

/** `--all -o json`: an array in the config's order, each report exactly as one target's JSON; a failed target as `{target, error}`. */
function allJson(outcomes: Outcome[]): string {
  const items = outcomes.map((o) => ("report" in o ? JSON.parse(renderJson(o.report)) : o));
  return `${JSON.stringify(items, null, 2)}\n`;
}

function debugLines(report: DriftReport, skipped: readonly { file: string; document: number; reason: string }[]) {
  for (const s of skipped) process.stderr.write(`debug: skipped ${s.file}#${s.document}: ${s.reason}\n`);
  const stats = report.stats!;
  process.stderr.write(
    `debug: ${stats.objects} objects, ${stats.requests} API requests (${stats.dryRuns} dry-runs), ${stats.durationMs} ms\n`,
  );
}
