// A target whose preview could not be made (its cluster unreachable after the
// retries, or refused by the cluster registry): a row that says why, so the
// other targets' previews still appear and this one is not silently missing.

import type { PreviewReport } from "../../model/preview-report.ts";
import { noPreview } from "./no-preview.ts";

export function failedPreview(params: {
  target: string;
  cluster: string;
  base: string;
  head: string;
  message: string;
}): PreviewReport {
  const { message, ...identity } = params;
  return {
    ...identity,
    status: "failed",
    error: { message },
    ...noPreview(),
  };
}
