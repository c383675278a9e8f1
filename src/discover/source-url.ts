// Whether a reconciler's source URL is this repository: the same host, owner
// and repository, whatever the scheme (https://, ssh://, git@host:path), user,
// port, letter case of host and names, or `.git` suffix. GitHub's names are
// case-insensitive, so Flux pointing at `Acme/GitOps.git` reads this repository.

/** A repository as GitHub names it: its web host (github.com or a GHE host), owner and name. */
export interface RepositoryIdentity {
  host: string;
  owner: string;
  repo: string;
}

/** The host, owner and repository a Git URL names, or undefined when it names none (a local path, a bad URL). */
export function repositoryOfUrl(url: string): RepositoryIdentity | undefined {
  const trimmed = url.trim();
  // scp-like syntax, as git reads it: [user@]host:path, with no scheme and no slash before the colon.
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/.exec(trimmed);
  let host: string;
  let path: string;
  if (scp && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(trimmed)) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      return undefined;
    }
    if (!["https:", "http:", "ssh:", "git:"].includes(parsed.protocol)) return undefined;
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  }
  const parts = path.replace(/^\/+|\/+$/g, "").split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  const repo = parts[1].replace(/\.git$/i, "");
  if (!repo) return undefined;
  return { host: host.toLowerCase(), owner: parts[0].toLowerCase(), repo: repo.toLowerCase() };
}

/** Whether `url` names `repository`. */
export function isSameRepository(url: string, repository: RepositoryIdentity): boolean {
  const named = repositoryOfUrl(url);
  return (
    named !== undefined &&
    named.host === repository.host.toLowerCase() &&
    named.owner === repository.owner.toLowerCase() &&
    named.repo === repository.repo.toLowerCase()
  );
}
