// What a kustomize target renders from, as repository paths, read from the
// kustomization files alone (no render): the folders it reaches through
// `resources`, `bases` and `components` (walked for their own kustomizations),
// and the files its kustomizations name (patches, replacements, generator
// inputs, transformer configs, helm values). Pure: it is given the repository's
// file list and the kustomization texts read so far, and says which others it
// still needs, so the caller reads them wherever the repository lives and asks again:
//
//   let deps = kustomizeDependencies({ root, paths, kustomizations });
//   while (deps.unread.length) { for (const f of deps.unread) texts.set(f, await read(f)); deps = kustomizeDependencies(...) }
//
// A reference that is neither a file nor a folder of the repository (a remote
// base, a URL, a path outside it) is not followed: the renderer refuses those.
import { posix } from "node:path";
import { parse } from "yaml";
import { KUSTOMIZATION_NAMES } from "./find-kustomization.ts";

export interface KustomizeDependencies {
  /** Folders the target renders from, its own first; a change anywhere under one may change the render. */
  folders: string[];
  /** Files outside those folders that a kustomization names. */
  files: string[];
  /** Kustomization files the walk reached but was not given the text of. */
  unread: string[];
}

/** The dependencies of the kustomization in folder `root`; all empty when `root` has none (not a kustomize target). */
export function kustomizeDependencies(params: {
  root: string;
  /** Every file of the repository, repository-relative with `/`. */
  paths: ReadonlySet<string>;
  kustomizations: ReadonlyMap<string, string>;
}): KustomizeDependencies {
  const { paths, kustomizations } = params;
  const folders: string[] = [];
  const files = new Set<string>();
  const unread: string[] = [];
  const isFolder = folderTest(paths);
  const visit = (dir: string) => {
    if (folders.includes(dir)) return;
    const file = KUSTOMIZATION_NAMES.map((name) => join(dir, name)).find((f) => paths.has(f));
    if (folders.length === 0 && file === undefined) return;
    folders.push(dir);
    if (file === undefined) return;
    const text = kustomizations.get(file);
    if (text === undefined) {
      unread.push(file);
      return;
    }
    for (const ref of references(text)) {
      const path = resolve(dir, ref);
      if (path === undefined) continue;
      if (paths.has(path)) files.add(path);
      else if (isFolder(path)) visit(path);
    }
  };
  visit(normalizeRoot(params.root));
  const under = (path: string, dir: string) => dir === "." || path.startsWith(`${dir}/`);
  return {
    // A folder inside another adds nothing to what a change can touch.
    folders: folders.filter((dir) => !folders.some((other) => other !== dir && under(dir, other))),
    files: [...files].filter((file) => !folders.some((dir) => under(file, dir))).sort(),
    unread,
  };
}

/** Whether a change to `file` may change a render with these dependencies. */
export function dependsOn(deps: Pick<KustomizeDependencies, "folders" | "files">, file: string): boolean {
  return deps.files.includes(file) || deps.folders.some((dir) => dir === "." || file.startsWith(`${dir}/`));
}

/** Every path a kustomization names, as written; fields kustomize reads files or folders from. */
function references(text: string): string[] {
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    // A kustomization that is not YAML fails the render, which says where; it names nothing here.
    return [];
  }
  if (!isRecord(value)) return [];
  const out: string[] = [];
  const strings = (v: unknown) => {
    // Inline patches and transformer configs are YAML text, not paths.
    for (const s of Array.isArray(v) ? v : [v]) if (typeof s === "string" && !s.includes("\n")) out.push(s);
  };
  const pathsOf = (v: unknown) => {
    for (const entry of Array.isArray(v) ? v : []) if (isRecord(entry)) strings(entry.path);
  };
  for (const field of ["resources", "bases", "components", "crds", "configurations", "patchesStrategicMerge"])
    strings(value[field]);
  for (const field of ["transformers", "generators", "validators"]) strings(value[field]);
  for (const field of ["patches", "patchesJson6902", "replacements"]) pathsOf(value[field]);
  if (isRecord(value.openapi)) strings(value.openapi.path);
  for (const field of ["configMapGenerator", "secretGenerator"]) {
    for (const generator of Array.isArray(value[field]) ? value[field] : []) {
      if (!isRecord(generator)) continue;
      // `files` entries may carry a key: `key=path`.
      const named = Array.isArray(generator.files) ? generator.files : [];
      strings(named.map((f) => (typeof f === "string" ? f.slice(f.indexOf("=") + 1) : f)));
      strings(generator.envs);
      strings(generator.env);
    }
  }
  if (Array.isArray(value.helmCharts) && value.helmCharts.length > 0) {
    const globals = isRecord(value.helmGlobals) ? value.helmGlobals : {};
    out.push(typeof globals.chartHome === "string" ? globals.chartHome : "charts");
    for (const chart of value.helmCharts) {
      if (!isRecord(chart)) continue;
      strings(chart.valuesFile);
      strings(chart.additionalValuesFiles);
    }
  }
  return out;
}

/** `ref` resolved against `dir`; undefined when it is remote or leaves the repository. */
function resolve(dir: string, ref: string): string | undefined {
  if (ref.includes("://") || posix.isAbsolute(ref)) return undefined;
  const path = join(dir, ref);
  return path === ".." || path.startsWith("../") ? undefined : path;
}

function join(dir: string, ref: string): string {
  return posix.normalize(posix.join(dir, ref)).replace(/\/+$/, "");
}

function normalizeRoot(root: string): string {
  const path = posix.normalize(root).replace(/\/+$/, "");
  return path === "" ? "." : path;
}

function folderTest(paths: ReadonlySet<string>): (path: string) => boolean {
  const folders = new Set<string>(["."]);
  for (const file of paths) {
    for (let dir = posix.dirname(file); dir !== "." && !folders.has(dir); dir = posix.dirname(dir)) folders.add(dir);
  }
  return (path) => folders.has(path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
