// Where the kustomize and helm binaries are. The project builds pinned
// versions into a cache (scripts/cluster/build.ts); src/ must not import
// scripts/, so the lookup repeats only the cache's naming: <cache>/bin/<tool>-<version>.
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { UndriftError } from "../model/undrift-error.ts";

export type Tool = "kustomize" | "helm";

const envVar: Record<Tool, string> = { kustomize: "UNDRIFT_KUSTOMIZE", helm: "UNDRIFT_HELM" };

/** No binary for a tool was found anywhere undrift looks. */
export class ToolNotFoundError extends UndriftError {
  override name = "ToolNotFoundError";
  readonly permanent = true;
}

/** The binary to run for `tool`: $UNDRIFT_KUSTOMIZE / $UNDRIFT_HELM, else the newest in the cache, else PATH. */
export function toolPath(tool: Tool): string {
  const fromEnv = process.env[envVar[tool]];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new ToolNotFoundError(`${envVar[tool]}=${fromEnv}: not an executable file`);
    return fromEnv;
  }
  const cacheDir = join(process.env.UNDRIFT_CACHE || join(homedir(), ".cache", "undrift"), "bin");
  const cached = newestCached(cacheDir, tool);
  if (cached) return cached;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && isExecutable(join(dir, tool))) return join(dir, tool);
  }
  throw new ToolNotFoundError(
    `${tool} not found: set ${envVar[tool]}, build it into ${cacheDir} (npm run cluster:up), or put it on PATH`,
  );
}

/** `<dir>/<tool>-v1.2.3`, the highest version first; half-built `.partial` files are not candidates. */
function newestCached(dir: string, tool: Tool): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined; // no cache yet: fall through to PATH
  }
  const versioned = names
    .filter((name) => name.startsWith(`${tool}-`) && !name.endsWith(".partial"))
    .map((name) => ({ name, version: versionParts(name.slice(tool.length + 1)) }))
    .filter(({ name }) => isExecutable(join(dir, name)))
    .sort((a, b) => compareVersions(b.version, a.version) || (a.name < b.name ? 1 : -1));
  return versioned[0] && join(dir, versioned[0].name);
}

function versionParts(version: string): number[] {
  return [...version.matchAll(/\d+/g)].map((m) => Number(m[0]));
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
