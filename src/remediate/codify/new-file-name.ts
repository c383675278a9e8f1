// File names for what codify adds: `<kind>-<name>.yaml`, lowercased, made
// unique against the repository and the other additions of the same run.
import { posix } from "node:path";

export function newFileName(params: {
  dir: string;
  kind: string;
  name: string;
  namespace?: string | undefined;
  taken: (file: string) => boolean;
}): string {
  const { dir, kind, name, namespace, taken } = params;
  const bases = [`${kind}-${name}`, ...(namespace ? [`${kind}-${namespace}-${name}`] : [])].map((b) =>
    b.toLowerCase().replace(/[^a-z0-9.-]+/g, "-"),
  );
  for (const base of bases) {
    const file = posix.join(dir, `${base}.yaml`);
    if (!taken(file)) return file;
  }
  for (let n = 2; ; n++) {
    const file = posix.join(dir, `${bases.at(-1)}-${n}.yaml`);
    if (!taken(file)) return file;
  }
}
