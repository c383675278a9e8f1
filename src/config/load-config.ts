// The repository config, from YAML text (a push, the CLI's working tree) or from
// data Probot's loader already parsed and merged with `_extends`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "./config-error.ts";
import { parseYamlConfig } from "./parse-yaml-config.ts";
import { type RepoConfig, repoConfigSchema } from "./schema.ts";
import { validateConfig } from "./validate-config.ts";

/** The names the config goes by, in the order they are looked for: the first that exists is the config. */
export const CONFIG_FILES: readonly string[] = [".github/undrift.yml", ".github/undrift.yaml"];
const DEFAULT_FILE = ".github/undrift.yml";

/** Parses and validates `.github/undrift.yml`; throws ConfigError `<file>:<line>: <field>: <problem>`. */
export function loadConfig(text: string, file = DEFAULT_FILE): RepoConfig {
  return parseYamlConfig(repoConfigSchema, text, file);
}

/** Validates config data that is already parsed (Probot's `context.config`); its issues carry no line. */
export function parseRepoConfig(data: unknown, file = DEFAULT_FILE): RepoConfig {
  return validateConfig(repoConfigSchema, data, file, () => undefined);
}

/** Reads and parses `<repoDir>/.github/undrift.yml`, or `.yaml` when only that exists. */
export async function readRepoConfig(repoDir: string): Promise<RepoConfig> {
  for (const file of CONFIG_FILES) {
    let text: string;
    try {
      text = await readFile(join(repoDir, file), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    return loadConfig(text, file);
  }
  throw new ConfigError(`${DEFAULT_FILE}: not found in ${repoDir}`, { file: DEFAULT_FILE });
}
