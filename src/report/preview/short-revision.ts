// A commit as a reviewer reads it in a heading: short, as GitHub shows it.

/** The first 7 characters of a full commit SHA; a ref or a short SHA as given. */
export function shortRevision(revision: string): string {
  return /^[0-9a-f]{40}$/i.test(revision) ? revision.slice(0, 7) : revision;
}
