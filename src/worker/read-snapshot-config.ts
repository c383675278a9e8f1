// A scan's config, from the repository snapshot it scans: loadConfig on the
// snapshot's `.github/undrift.yml` (else `.github/undrift.yaml`), so errors name the line. A file that
// extends another (`_extends`) is read through Probot's loader instead, at the
// same commit, as the webhooks read it. An invalid file falls back to the
// repository's last valid config, said in the result; without one it throws.
//
// A file that extends nothing is parsed once per text: every job of a cycle
// reads the same snapshot, and at 1,000 targets in one repository parsing and
// validating the file cost about 0.3 s of CPU, and the check for `_extends` as
// much again, in each of the cycle's 1,000 jobs. The parsed config is frozen and
// shared, not copied for each job: at 1,000 targets it is about 640 kB as JSON,
// and a copy per job was 4 ms of CPU and a large object for the collector in
// each of them.
//
// A broken text is remembered too, with its error: until the push that fixes it,
// every job of every cycle reads the same broken file, and validating it again
// in each cost the same 0.3 s as a valid one (its fallback, the last valid
// config, is read once per digest by lastValidConfig).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ProbotOctokit } from "probot";
import { parse } from "yaml";
import { ConfigError } from "../config/config-error.ts";
import { CONFIG_FILES, loadConfig } from "../config/load-config.ts";
import type { RepoConfig } from "../config/schema.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { deepFreeze } from "../model/deep-freeze.ts";
import { RecentMap } from "../model/recent-map.ts";
import { shortHash } from "../model/short-hash.ts";

/**
 * The config to scan with, frozen; `invalid` is the snapshot's own error when the last valid config stands in;
 * `digest` names the file's text when the config is the file's own (for lastValidConfig, which then skips an
 * unchanged write); undefined when there is no config.
 */
export async function readSnapshotConfig(params: {
  dir: string;
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  sha: string;
  lastValid: () => Promise<RepoConfig | undefined>;
}): Promise<{ config: RepoConfig; invalid?: ConfigError; digest?: string } | undefined> {
  let fromFile: { config: RepoConfig; digest?: string } | undefined;
  try {
    fromFile = await readOwn(params);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const kept = await params.lastValid();
    if (!kept) throw error;
    return { config: deepFreeze(kept), invalid: error };
  }
  return fromFile;
}

/**
 * Valid configs of files that extend nothing, by file and text, frozen. 64: one per repository a worker serves in
 * a cycle, at a few hundred kB each for 1,000 targets.
 */
const parsed = new RecentMap<RepoConfig>(64);
/** The errors of broken files that extend nothing, by file and text: a text fails the same way every time. */
const refused = new RecentMap<ConfigError>(64);

async function readOwn(params: {
  dir: string;
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  sha: string;
}): Promise<{ config: RepoConfig; digest?: string } | undefined> {
  for (const file of CONFIG_FILES) {
    let text: string;
    try {
      text = await readFile(join(params.dir, file), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const digest = `${file}\u0000${shortHash(text, 64)}`;
    const known = parsed.get(digest);
    if (known) return { config: known, digest };
    const broken = refused.get(digest);
    if (broken) throw broken;
    if (!extendsAnother(text)) {
      let config: RepoConfig;
      try {
        config = deepFreeze(loadConfig(text, file));
      } catch (error) {
        if (error instanceof ConfigError) refused.set(digest, error);
        throw error;
      }
      parsed.set(digest, config);
      return { config, digest };
    }
    // What it extends can change without this file changing: no digest, and nothing kept.
    const loaded = await loadRepoConfig({ ...params, ref: params.sha, file });
    if (loaded.status === "invalid") throw loaded.error;
    return loaded.status === "valid" ? { config: deepFreeze(loaded.config) } : undefined;
  }
  return undefined;
}

function extendsAnother(text: string): boolean {
  try {
    const data: unknown = parse(text);
    return typeof data === "object" && data !== null && "_extends" in data;
  } catch {
    // Not YAML: loadConfig says where.
    return false;
  }
}
