// The repository config, from YAML text (a push, the CLI's working tree) or from
// data Probot's loader already parsed and merged with `_extends`.
import { readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { checkTargetPaths } from "./check-target-paths.ts";
import { ConfigError } from "./config-error.ts";
import { locateIgnoreRules } from "./locate-ignore-rules.ts";
import { outsideRepo } from "./outside-repo.ts";
import { checkConfigSize, parseYamlConfig } from "./parse-yaml-config.ts";
import { type RepoConfig, repoConfigSchema } from "./schema.ts";
import { validateConfig } from "./validate-config.ts";

/** The names the config goes by, in the order they are looked for: the first that exists is the config. */
export const CONFIG_FILES: readonly string[] = [".github/undrift.yml", ".github/undrift.yaml"];
const DEFAULT_FILE = ".github/undrift.yml";

/** Parses and validates `.github/undrift.yml`; throws ConfigError `<file>:<line>: <field>: <problem>`. */
export function loadConfig(text: string, file = DEFAULT_FILE): RepoConfig {
  return parseYamlConfig(repoConfigSchema, text, file, (config, lineOf) => locateIgnoreRules(config, file, lineOf));
}

/** Validates config data that is already parsed (Probot's `context.config`); its issues carry no line. */
export function parseRepoConfig(data: unknown, file = DEFAULT_FILE): RepoConfig {
  return validateConfig(repoConfigSchema, data, file, () => undefined);
}

/**
 * Reads and parses `<repoDir>/.github/undrift.yml`, or `.yaml` when only that exists,
 * and checks each target's path against the tree (no link out, a folder).
 */
export async function readRepoConfig(repoDir: string): Promise<RepoConfig> {
  const root = await realpath(repoDir).catch((cause: NodeJS.ErrnoException) => {
    throw new ConfigError(`${DEFAULT_FILE}: the repository folder ${repoDir} cannot be read (${cause.code})`, {
      file: DEFAULT_FILE,
      cause,
    });
  });
  for (const file of CONFIG_FILES) {
    const abs = join(root, file);
    const info = await stat(abs).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
      throw new ConfigError(`${file}: cannot be read (${error.code ?? error.message})`, { file, cause: error });
    });
    if (!info) continue;
    // A config linked to /etc/passwd would otherwise be quoted back in its parse errors.
    const outside = await outsideRepo({ root, path: file });
    if (outside) throw new ConfigError(outside, { file });
    if (!info.isFile()) throw new ConfigError(`${file}: is a folder, not a file`, { file });
    // Checked before reading, so a huge file is never held in memory.
    checkConfigSize(file, info.size);
    const text = await readFile(abs, "utf8");
    const config = loadConfig(text, file);
    await checkTargetPaths({ root, config, text, file });
    return config;
  }
  throw new ConfigError(`${DEFAULT_FILE}: not found in ${repoDir}`, { file: DEFAULT_FILE });
}
