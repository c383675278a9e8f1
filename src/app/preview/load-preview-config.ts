// Step 1 of requestPreview: the config at the pull request's head. Absent
// asks for nothing; invalid posts the failing `undrift/config` check on the
// head, which names file, line and field.
import type { ProbotOctokit } from "probot";
import type { RepoConfig } from "../../config/schema.ts";
import { loadRepoConfig } from "../../github/load-repo-config.ts";
import { postConfigCheck } from "../../github/post-config-check.ts";
import type { PreviewRequest } from "./preview-request.ts";

/** The config with targets to preview, or why there is nothing to ask. */
export async function loadPreviewConfig(params: {
  octokit: ProbotOctokit;
  request: PreviewRequest;
}): Promise<{ config: RepoConfig } | { skipped: string }> {
  const { octokit, request } = params;
  const { owner, repo, head } = request;
  const loaded = await loadRepoConfig({ octokit, owner, repo, ref: head });
  if (loaded.status === "absent") return { skipped: "no .github/undrift.yml at the head" };
  if (loaded.status === "invalid") {
    await postConfigCheck({ octokit, owner, repo, headSha: head, error: loaded.error });
    return { skipped: `invalid config at the head: ${loaded.error.message}` };
  }
  const { config } = loaded;
  if (config.targets.length === 0) return { skipped: "the config has no targets" };
  return { config };
}
