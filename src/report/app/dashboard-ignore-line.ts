// The dashboard's line of an ignore tick. The tick only queues an `ignore`
// job, so its line first says the pull request is being prepared; when the
// job has an outcome, that same line is rewritten to name the pull request it
// opened or updated (`→ #7 <url>`), or to say why there is none, in the
// issue and in the log later scans render. Both spellings come from here, so
// the job finds the line the tick wrote.
import { type ObjectRef, objectLabel } from "../../model/object-label.ts";
import { codeSpan } from "../markdown-escape.ts";

/** `` `apps/v1 Deployment shop/web` `/spec/replicas` ``, a few of them, then how many more. */
export function describeTicked(items: ReadonlyArray<{ ref: ObjectRef; path?: string | undefined }>): string {
  const named = items.map((i) => `${codeSpan(objectLabel(i.ref))}${i.path ? ` ${codeSpan(i.path)}` : ""}`);
  return named.length > 5 ? `${named.slice(0, 5).join(", ")} and ${named.length - 5} more` : named.join(", ");
}

/** What an ignore job came to: its pull request, or the first line of why there is none. */
export interface IgnoreTickOutcome {
  number?: number;
  url?: string;
  lines: readonly string[];
}

/** `@bob asked to ignore … → the ignore pull request is being prepared`, then `→ #7 <url>` once the job is done. */
export function ignoreTickLine(params: {
  requestedBy: string;
  items: ReadonlyArray<ObjectRef & { path?: string | undefined }>;
  outcome?: IgnoreTickOutcome;
}): string {
  const what = describeTicked(params.items.map(({ path, ...ref }) => ({ ref, path })));
  const { outcome } = params;
  const tail = !outcome
    ? " → the ignore pull request is being prepared"
    : outcome.number !== undefined
      ? ` → #${outcome.number}${outcome.url ? ` ${outcome.url}` : ""}`
      : `: no pull request (${outcome.lines[0] ?? "nothing to do"})`;
  return `@${params.requestedBy} asked to ignore ${what}${tail}`;
}
