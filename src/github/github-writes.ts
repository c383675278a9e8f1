// The dry-run twin of every GitHub write (STYLE habit 4, safe-settings'
// NopCommand): a writer decides from what it read, then each write goes
// through `write`, which records it and, unless this is a dry run, performs it.
// A dry run thus yields the same records as the real run, without a write.

/** One write, as the CLI prints it and the audit log keeps it: the route and what it does. */
export interface WriteRecord {
  /** `PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}`. */
  route: string;
  /** `update check run undrift/infra on 4b825dc`. */
  summary: string;
}

export interface Writes {
  readonly dryRun: boolean;
  readonly records: WriteRecord[];
  /** Records the write; performs it unless dry-running, when it resolves to undefined. */
  write<T>(record: WriteRecord, perform: () => Promise<T>): Promise<T | undefined>;
}

export function createWrites(params: { dryRun?: boolean }): Writes {
  const records: WriteRecord[] = [];
  const dryRun = params.dryRun === true;
  return {
    dryRun,
    records,
    async write(record, perform) {
      records.push(record);
      return dryRun ? undefined : perform();
    },
  };
}
