// What a mode's actions did, for the scan to audit and to say in its check run.

export interface ModeResult {
  /**
   * Each GitHub write made (or, for heal, each apply), as an audit event (`pr-opened`), a few words
   * (`created #3`), where to see it, and the objects, fields and managers it concerned.
   */
  done: Array<{
    event: string;
    summary: string;
    url?: string;
    objects?: string[];
    fields?: string[];
    managers?: string[];
  }>;
  /** The pull request the mode keeps (codify, revert), whether or not this scan wrote to it. */
  pullRequest?: { number: number; url?: string };
  /** Lines for the check run's summary: where to act, and anything the reader must know. */
  lines: string[];
}
