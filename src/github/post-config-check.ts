// The failing check run `undrift/config` an invalid `.github/undrift.yml` gets,
// on the commit where its author looks: each problem in the summary as
// `file:line: field: problem`, and as an annotation on its line when it has one.
import { type ConfigError, formatConfigIssue } from "../config/config-error.ts";
import type { CheckAnnotation } from "../report/check-run-output.ts";
import { type CheckRunResult, ensureCheckRun } from "./ensure-check-run.ts";
import type { GitHubClient } from "./github-client.ts";

const CONFIG_CHECK_NAME = "undrift/config";

export async function postConfigCheck(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  error: ConfigError;
}): Promise<CheckRunResult> {
  const { error } = params;
  const issues = error.issues.length > 0 ? error.issues : [{ path: "", message: error.message }];
  const annotations: CheckAnnotation[] = issues.flatMap((issue) =>
    issue.line === undefined
      ? []
      : [
          {
            path: error.file,
            startLine: issue.line,
            level: "failure" as const,
            message: issue.message,
            ...(issue.path ? { title: issue.path } : {}),
          },
        ],
  );
  const lines = issues.map((issue) => `- \`${formatConfigIssue(error.file, issue).replaceAll("`", "'")}\``);
  const summary = [
    `undrift could not use \`${error.file}\`; the schedulers of its last valid version stay in force until it is fixed.`,
    "",
    ...lines,
  ].join("\n");
  return ensureCheckRun({
    octokit: params.octokit,
    owner: params.owner,
    repo: params.repo,
    name: CONFIG_CHECK_NAME,
    headSha: params.headSha,
    conclusion: "failure",
    output: { title: error.message, summary, ...(annotations.length ? { annotations } : {}) },
  });
}
