// A repository's `.github/undrift.yml` (or `.github/undrift.yaml` when only
// that exists, as the CLI reads it) through Probot's config loader, so that
// `_extends: owner/repo` (org-wide defaults) works as in every Probot app, then
// validated with the schema. The loader hands back parsed data, which has no
// lines; when it is invalid, the repository's own file is read again as text
// and parsed with loadConfig, so the error names file, line and field.
//
// Merge: the repository's file over what it extends, maps merged key by key,
// lists and values replaced (a repository's `targets` are its own, never
// appended to the base's).
// A repository opts in with a file of its own: the loader's fallback to the
// owner's `.github` repository is not taken for a config, since a target names
// folders of one repository; org defaults come in through `_extends`.
import type { ProbotOctokit } from "probot";
import { ConfigError, type ConfigIssue } from "../config/config-error.ts";
import { CONFIG_FILES, loadConfig, parseRepoConfig } from "../config/load-config.ts";
import { checkConfigSize } from "../config/parse-yaml-config.ts";
import type { RepoConfig } from "../config/schema.ts";
import { classifyGitHubError, githubStep } from "./github-errors.ts";

export type RepoConfigResult =
  | { status: "absent" }
  | { status: "valid"; config: RepoConfig }
  | { status: "invalid"; error: ConfigError };

const LOADER_PREFIX = /^\[@probot\/octokit-plugin-config\]\s*/;

/** The config at `ref` (default: the default branch); GitHub failures throw as GitHubError. */
export async function loadRepoConfig(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  ref?: string;
  /** Only this one of CONFIG_FILES (a snapshot already shows which exists). */
  file?: string;
}): Promise<RepoConfigResult> {
  for (const file of params.file ? [params.file] : CONFIG_FILES) {
    const result = await loadConfigFile({ ...params, file });
    if (result.status !== "absent") return result;
  }
  return { status: "absent" };
}

async function loadConfigFile(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  ref?: string;
  file: string;
}): Promise<RepoConfigResult> {
  const { octokit, owner, repo, ref, file } = params;
  let loaded: Awaited<ReturnType<ProbotOctokit["config"]["get"]>>;
  try {
    loaded = await githubStep({
      repo: params,
      step: `read ${file}`,
      run: () =>
        withConfigSizeCheck(octokit, () =>
          octokit.config.get({
            owner,
            repo,
            path: file,
            ...(ref ? { branch: ref } : {}),
            defaults: (configs) => configs.reduce<Record<string, unknown>>((merged, c) => mergeConfig(merged, c), {}),
          }),
        ),
    });
  } catch (error) {
    // Too large: refused as the CLI refuses it, before the loader parses it.
    if (error instanceof ConfigError) return { status: "invalid", error };
    // The loader's own refusals (YAML it cannot parse, a bad `_extends`) are the author's to fix, not GitHub's failures.
    if (classifyGitHubError(error) !== undefined || !(error instanceof Error) || !LOADER_PREFIX.test(error.message))
      throw error;
    return { status: "invalid", error: await withLines({ ...params, fallback: loaderError(error, file) }) };
  }
  const own = loaded.files[0];
  if (!own || own.owner !== owner || own.repo !== repo || own.config === null) return { status: "absent" };
  try {
    return { status: "valid", config: parseRepoConfig(loaded.config, file) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { status: "invalid", error: await withLines({ ...params, fallback: error }) };
  }
}

/**
 * `load` with every config file the loader reads (the repository's own and any it extends) held to the CLI's size
 * limit: the loader hands back only parsed data, so the check sits on its raw reads, and is removed after.
 */
async function withConfigSizeCheck<T>(octokit: ProbotOctokit, load: () => Promise<T>): Promise<T> {
  const check = (
    response: { data: unknown },
    options: { url?: string; path?: unknown; mediaType?: { format?: string } },
  ) => {
    const configRead = options.url === "/repos/{owner}/{repo}/contents/{path}" && options.mediaType?.format === "raw";
    if (configRead && typeof response.data === "string" && /\.(ya?ml|json)$/.test(String(options.path))) {
      checkConfigSize(String(options.path), Buffer.byteLength(response.data));
    }
  };
  octokit.hook.after("request", check);
  try {
    return await load();
  } finally {
    octokit.hook.remove("request", check);
  }
}

function loaderError(error: Error, file: string): ConfigError {
  const message = error.message.replace(LOADER_PREFIX, "");
  return ConfigError.fromIssues(file, [{ path: "", message }], { cause: error });
}

/** `fallback` with the line of each issue, taken from the repository's own file where that file says the same. */
async function withLines(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  ref?: string;
  file: string;
  fallback: ConfigError;
}): Promise<ConfigError> {
  const { octokit, owner, repo, ref, file, fallback } = params;
  const text = await githubStep({
    repo: params,
    step: `read ${file} as text`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
        owner,
        repo,
        path: file,
        ...(ref ? { ref } : {}),
        mediaType: { format: "raw" },
      });
      return typeof data === "string" ? data : undefined;
    },
  });
  if (text === undefined) return fallback;
  let own: ConfigError;
  try {
    loadConfig(text, file);
    // The file alone is valid: the problem came in through `_extends`, whose lines are another file's.
    return fallback;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    own = error;
  }
  // A YAML error has no field: the text's verdict is the whole story.
  if (own.issues.some((issue) => issue.path === "") || fallback.issues.every((issue) => issue.path === "")) return own;
  const lines = new Map(own.issues.map((issue) => [`${issue.path}\n${issue.message}`, issue.line]));
  const issues: ConfigIssue[] = fallback.issues.map((issue) => {
    const line = lines.get(`${issue.path}\n${issue.message}`);
    return line === undefined ? issue : { ...issue, line };
  });
  return ConfigError.fromIssues(file, issues, { cause: fallback });
}

/** `over` laid on `base`: maps merged key by key, anything else replaced. */
function mergeConfig(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = merged[key];
    merged[key] = isMap(current) && isMap(value) ? mergeConfig(current, value) : value;
  }
  return merged;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
