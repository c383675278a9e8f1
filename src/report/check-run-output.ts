// What a check run shows: rendered in report/, sent by github/ensure-check-run.ts.

export type CheckConclusion = "success" | "neutral" | "failure";

/** A line of a file to point at, as a config error does (`.github/undrift.yml` line 12). */
export interface CheckAnnotation {
  path: string;
  startLine: number;
  endLine?: number;
  level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
}

export interface CheckRunOutput {
  title: string;
  /** Markdown; cut to GitHub's 65,535 characters with a note. */
  summary: string;
  text?: string;
  /** At most 50 are sent (GitHub's limit per request). */
  annotations?: CheckAnnotation[];
}
