// The failing check run of a target that could not be scanned: refused (its
// cluster is not allowed), or failed for good (its files, its cluster, GitHub).
// The message is one line, masked, never a stack trace.
import { ClusterAccessError } from "../config/cluster-registry.ts";
import { ConfigError, formatConfigIssue } from "../config/config-error.ts";
import type { CheckAnnotation } from "../report/check-run-output.ts";
import { errorSummary } from "../report/error-summary.ts";
import { type CheckRunResult, checkRunName, ensureCheckRun } from "./ensure-check-run.ts";
import type { GitHubClient } from "./github-client.ts";

export async function postFailureCheck(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  target: string;
  error: unknown;
}): Promise<CheckRunResult> {
  const { error, target } = params;
  const message = errorSummary(error);
  const refused = error instanceof ClusterAccessError;
  const title = refused ? `refused: ${message}` : `could not scan ${target}: ${message}`;
  const why = refused
    ? "The cluster registry of this undrift server does not let this repository use that cluster, so the target has no schedule and nothing is read from the cluster. Name a cluster the registry allows, or ask the server's operators to add this repository to it."
    : "The scan stopped before it could compare Git with the cluster. It runs again on the next schedule or push.";
  const lines = error instanceof ConfigError ? error.issues.map((issue) => formatConfigIssue(error.file, issue)) : [];
  const summary = [
    `**${refused ? "Refused" : "Scan failed"}** for target \`${target}\`:`,
    "",
    `> ${message}`,
    "",
    why,
    ...(lines.length > 1 ? ["", ...lines.map((line) => `- ${line}`)] : []),
  ].join("\n");
  // Only the repository's own files can carry an annotation; a server file's path is none of its business.
  const annotations: CheckAnnotation[] =
    error instanceof ConfigError && error.file.startsWith(".github/")
      ? error.issues.flatMap((issue) =>
          issue.line === undefined
            ? []
            : [{ path: error.file, startLine: issue.line, level: "failure" as const, message: issue.message }],
        )
      : [];
  return ensureCheckRun({
    octokit: params.octokit,
    owner: params.owner,
    repo: params.repo,
    name: checkRunName(target),
    headSha: params.headSha,
    conclusion: "failure",
    output: { title, summary, ...(annotations.length ? { annotations } : {}) },
  });
}
