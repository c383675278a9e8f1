// The files a push changed, from its webhook payload; undefined when the
// payload cannot tell (a force push, which may have dropped commits the list
// does not show, or a list at GitHub's cap), so the caller assumes anything changed.

/** GitHub lists at most this many commits in a push payload. */
const MAX_LISTED_COMMITS = 2048;

interface PushedCommit {
  added?: string[];
  removed?: string[];
  modified?: string[];
}

export function changedFiles(push: { commits: readonly PushedCommit[]; forced: boolean }): Set<string> | undefined {
  if (push.forced || push.commits.length === 0 || push.commits.length >= MAX_LISTED_COMMITS) return undefined;
  const files = new Set<string>();
  for (const commit of push.commits) {
    for (const file of [...(commit.added ?? []), ...(commit.removed ?? []), ...(commit.modified ?? [])])
      files.add(file);
  }
  return files;
}
