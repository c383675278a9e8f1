// Where a notification's reader can act: the check run, the tracking issue or
// pull request the modes keep (their check-run lines say where, written or
// unchanged), and the repository, taken from the check run's address so that
// GitHub Enterprise hosts come out right.

import type { ModeResult } from "../../modes/mode-result.ts";
import type { Notice } from "../../report/notify/notice.ts";

export function scanLinks(params: { checkUrl?: string; mode: ModeResult }): Notice["links"] {
  const links: Notice["links"] = {};
  if (params.checkUrl) {
    links.check = params.checkUrl;
    const repository = /^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\//.exec(params.checkUrl)?.[1];
    if (repository) links.repository = repository;
  }
  for (const line of params.mode.lines) {
    const url = /^(Tracking issue|Pull request): #\d+ (https?:\/\/\S+)$/.exec(line);
    if (url?.[1] === "Tracking issue") links.issue ??= url[2];
    if (url?.[1] === "Pull request") links.pullRequest ??= url[2];
  }
  return links;
}
