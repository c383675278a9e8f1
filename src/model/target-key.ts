// The identity of a (repository, target) in Redis: the job scheduler's id, the
// scan coalescing id, and the stem of a scan's job id. BullMQ refuses ":" in
// job ids; owner/name and target names cannot contain one.

/** `owner/name#target`, lowercased: GitHub names are case-insensitive, and a webhook may spell one differently. */
export function targetKey(repo: string, target: string): string {
  return `${repo.toLowerCase()}#${target}`;
}
