// A scan's config, from the repository snapshot it scans: loadConfig on the
// snapshot's `.github/undrift.yml` (else `.github/undrift.yaml`), so errors name the line. A file that
// extends another (`_extends`) is read through Probot's loader instead, at the
// same commit, as the webhooks read it. An invalid file falls back to the
// repository's last valid config, said in the result; without one it throws.
//
// A file that extends nothing is parsed once per text: every job of a cycle
// reads the same snapshot, and at 1,000 targets in one repository parsing and
// validating the file cost about 0.3 s of CPU, and the check for `_extends` as
// much again, in each of the cycle's 1,000 jobs.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ProbotOctokit } from "probot";
import { parse } from "yaml";
import { ConfigError } from "../config/config-error.ts";
import { CONFIG_FILES, loadConfig } from "../config/load-config.ts";
import type { RepoConfig } from "../config/schema.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { KeptCopies } from "../model/kept-copies.ts";
import { shortHash } from "../model/short-hash.ts";

/** The config to scan with; `invalid` is the snapshot's own error when the last valid config stands in; undefined when there is no config. */
export async function readSnapshotConfig(params: {
  dir: string;
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  sha: string;
  lastValid: () => Promise<RepoConfig | undefined>;
}): Promise<{ config: RepoConfig; invalid?: ConfigError } | undefined> {
  let fromFile: RepoConfig | undefined;
  try {
    fromFile = await readOwn(params);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const kept = await params.lastValid();
    if (!kept) throw error;
    return { config: kept, invalid: error };
  }
  return fromFile ? { config: fromFile } : undefined;
}

/**
 * Valid configs of files that extend nothing, by file and text, each job given its own copy (callers may edit
 * theirs). 64: one per repository a worker serves in a cycle, at a few hundred kB each for 1,000 targets.
 */
const parsed = new KeptCopies<RepoConfig>(64);

async function readOwn(params: {
  dir: string;
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  sha: string;
}): Promise<RepoConfig | undefined> {
  for (const file of CONFIG_FILES) {
    let text: string;
    try {
      text = await readFile(join(params.dir, file), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const key = `${file}\u0000${shortHash(text, 64)}`;
    const known = parsed.get(key);
    if (known) return known;
    if (!extendsAnother(text)) {
      const config = loadConfig(text, file);
      parsed.set(key, config);
      return config;
    }
    const loaded = await loadRepoConfig({ ...params, ref: params.sha, file });
    if (loaded.status === "invalid") throw loaded.error;
    return loaded.status === "valid" ? loaded.config : undefined;
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
