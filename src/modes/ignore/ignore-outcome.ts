// What an ignore request came to (propose-ignore.ts): heal's fights end in one,
// and heal reports it.

/** What an ignore request came to; `lines` say it for people (job result, audit, issue). */
export interface IgnoreOutcome {
  outcome: "created" | "updated" | "unchanged" | "refused" | "not-proved";
  number?: number;
  url?: string;
  /** Fields hidden from now on, as `Kind/namespace/name:/pointer`. */
  fields: string[];
  managers: string[];
  lines: string[];
}
