// What a pull_request event or `/undrift preview` asks requestPreview for.
import type { PreviewJob } from "../../queue/jobs.ts";

export interface PreviewRequest {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  /** The pull request's head commit. */
  head: string;
  /** The base branch's commit the event names. */
  baseSha: string;
  reason: PreviewJob["reason"];
  /** Run again even when this head was already asked for. */
  refresh?: boolean;
}
