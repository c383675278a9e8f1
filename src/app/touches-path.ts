// Whether a set of changed files reaches into a target's folder ("." is the
// whole repository). What a kustomize target uses from outside its folder is
// found by targets-using-changes.ts.

export function touchesPath(files: ReadonlySet<string> | undefined, path: string): boolean {
  if (files === undefined || path === "." || path === "") return true;
  const prefix = `${path.replace(/\/+$/, "")}/`;
  for (const file of files) if (file === path || file.startsWith(prefix)) return true;
  return false;
}
