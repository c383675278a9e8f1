// The one error every config file problem becomes: the first issue in the
// message, one line, as `<file>:<line>: <field>: <problem>`; all of them on
// `issues` for the check run's annotations.
import { UndriftError } from "../model/undrift-error.ts";

/**
 * One problem in a config file: the line it is on (1-based; absent when the data
 * did not come from text, as with Probot's merged config), the field
 * (`targets[1].mode`, empty for the whole file) and what is wrong.
 */
export interface ConfigIssue {
  line?: number;
  path: string;
  message: string;
}

/** A config file that cannot be read or is not valid; a user error, never worth a retry. */
export class ConfigError extends UndriftError {
  override name = "ConfigError";
  readonly permanent = true;
  readonly file: string;
  readonly issues: ConfigIssue[];

  constructor(message: string, options: { file: string; issues?: ConfigIssue[]; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.file = options.file;
    this.issues = options.issues ?? [];
  }

  /** The error for a list of issues, named after the first one. */
  static fromIssues(file: string, issues: ConfigIssue[], options?: { cause?: unknown }): ConfigError {
    const first = issues[0];
    const message = first ? formatConfigIssue(file, first) : `${file}: invalid`;
    return new ConfigError(message, { file, issues, cause: options?.cause });
  }
}

/** `<file>:<line>: <path>: <message>`, leaving out the line or the path where there is none. */
export function formatConfigIssue(file: string, issue: ConfigIssue): string {
  const where = issue.line === undefined ? file : `${file}:${issue.line}`;
  return issue.path === "" ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`;
}
