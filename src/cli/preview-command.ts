// undrift preview --repo DIR --base REF --head REF --target NAME [--kubeconfig FILE] [--context NAME]
//   [--output text|json|markdown]
// What merging head into base would do to the target's cluster, from two commits
// of a local clone: the same engine as the app's pull request preview.

import { readRepoConfig } from "../config/load-config.ts";
import { pickTarget } from "../config/pick-target.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import type { PreviewReport } from "../model/preview-report.ts";
import type { ClusterWhere } from "../report/cluster-where.ts";
import { renderPreviewComment } from "../report/preview/render-preview-comment.ts";
import { renderPreviewJson } from "../report/preview/render-preview-json.ts";
import { renderPreviewText } from "../report/preview/render-preview-text.ts";
import { previewTarget } from "../stages/preview/preview-target.ts";
import { clusterLabel } from "./cluster-label.ts";
import { preview, previewOutputs } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { gitRefTree, type RefTree } from "./git-ref-tree.ts";
import { parseTargetArgs } from "./parse-target-args.ts";
import { progressReporter } from "./progress.ts";
import { resolveTargets } from "./resolve-targets.ts";
import { worstExitCode } from "./worst-exit-code.ts";

/** 0 when merging changes nothing, 1 when it creates, changes, prunes or orphans something, 2 when head does not render. */
export function previewExitCode(report: PreviewReport): number {
  if (report.status !== "previewed") return 2;
  const { create, change, prune, orphan, refused } = report.summary;
  return create + change + prune + orphan + refused > 0 ? 1 : 0;
}

export async function previewCommand(argv: string[]): Promise<number> {
  const { values, ...args } = parseTargetArgs(argv, {
    options: preview.flags,
    outputs: previewOutputs,
  });
  if (!values.base) throw new UsageError("--base is required (the commit the change merges into, e.g. main)");
  if (!values.head) throw new UsageError("--head is required (the commit with the change, e.g. HEAD)");
  const kubeConfig = args.kubeConfig();
  const trees: RefTree[] = [];
  // A large preview takes a while: a terminal's stderr says so after two seconds (see progress.ts).
  const progress = progressReporter({ output: args.output });
  try {
    const head = await gitRefTree({ repoDir: args.repo, ref: values.head, option: "--head" });
    trees.push(head);
    const base = await gitRefTree({ repoDir: args.repo, ref: values.base, option: "--base" });
    trees.push(base);
    // The targets come from head's config: the one a merge would make the cluster follow.
    const choice = await resolveTargets({
      repoDir: head.dir,
      target: args.target,
      all: values.all,
      cluster: values.cluster,
    });
    // Each target is resolved here, once, from head's config; the stage takes it as it is.
    const headConfig = choice.config ?? (await readRepoConfig(head.dir));
    const targets = choice.names.map((name) => pickTarget(headConfig, name));
    // One session for every target: discovery and the LISTs of one cluster are paid once.
    const session = new ClusterSession(kubeConfig);
    const reports: PreviewReport[] = [];
    for (const target of targets) {
      progress.onProgress({ step: "preview", target: target.name });
      const report = await previewTarget({
        headDir: head.dir,
        baseDir: base.dir,
        headConfig,
        target,
        head: head.sha,
        base: base.sha,
        session,
      });
      reports.push(report);
      if (report.error) process.stderr.write(`${choice.all ? `${report.target}: ` : ""}${errorLine(report)}\n`);
    }
    progress.stop();
    process.stdout.write(
      format(reports, args.output, { color: args.color, all: choice.all, cluster: clusterLabel(kubeConfig) }),
    );
    return worstExitCode(reports.map(previewExitCode));
  } finally {
    progress.stop();
    await Promise.all(trees.map((t) => t.remove()));
  }
}

/** One target as before; --all: the texts one after another, markdown as one comment, JSON as an array of the reports. */
function format(
  reports: PreviewReport[],
  output: (typeof previewOutputs)[number],
  options: { color: boolean; all: boolean; cluster: ClusterWhere },
): string {
  if (output === "json") {
    if (!options.all) return renderPreviewJson(reports[0]!);
    return `${JSON.stringify(
      reports.map((r) => JSON.parse(renderPreviewJson(r))),
      null,
      2,
    )}\n`;
  }
  if (output === "markdown") {
    return `${renderPreviewComment({ head: reports[0]!.head, previews: reports }).join("\n\n")}\n`;
  }
  return reports.map((r) => renderPreviewText(r, { color: options.color, cluster: options.cluster })).join("\n");
}

/** The head render's failure as the contract's one line: `file:line: message` (the message names the file when it can). */
function errorLine(report: PreviewReport): string {
  const { message, file, line } = report.error!;
  const where = file && !message.startsWith(file) ? `${file}${line ? `:${line}` : ""}: ` : "";
  return `${where}${message}`.replace(/\s*\n\s*/g, " ");
}
