// What a mode's actions did, for the scan to audit and to say in its check run.

export interface ModeResult {
  /** Each GitHub write made, as an audit event (`pr-opened`), a few words (`created #3`) and where to see it. */
  done: Array<{ event: string; summary: string; url?: string }>;
  /** Lines for the check run's summary: where to act, and anything the reader must know. */
  lines: string[];
}
