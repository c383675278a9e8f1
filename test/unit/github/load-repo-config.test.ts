// The app reads `.github/undrift.yml` through Probot's loader, and holds it to the size limit the CLI holds it to.
import { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { MAX_CONFIG_BYTES } from "../../../src/config/parse-yaml-config.ts";
import { loadRepoConfig } from "../../../src/github/load-repo-config.ts";
import { owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const octokit = () => new ProbotOctokit({ retry: { enabled: false }, throttle: { enabled: false } });
const raw = { "content-type": "application/vnd.github.raw; charset=utf-8" };
const valid = "targets:\n  - name: infra\n    cluster: prod\n    path: infra\n";
// Valid YAML whose data is small: the bulk is a comment, which the loader's parsed data never shows.
const padded = `${valid}# ${"x".repeat(MAX_CONFIG_BYTES)}\n`;

describe("loadRepoConfig", () => {
  it("refuses a config over 1 MiB with the CLI's one-line error, reading it once", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/contents/.github/undrift.yml`,
      reply: { body: padded, headers: raw },
    });
    const loaded = await loadRepoConfig({ octokit: octokit(), owner, repo });
    expect(loaded.status).toBe("invalid");
    const error = (loaded as { error: ConfigError }).error;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.permanent).toBe(true);
    expect(error.message).toBe(
      `.github/undrift.yml: ${Buffer.byteLength(padded)} bytes; the limit is ${MAX_CONFIG_BYTES} bytes`,
    );
  });

  it("reads a config within the limit, and leaves the client's other reads unchecked afterwards", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/contents/.github/undrift.yml`,
      reply: { body: valid, headers: raw },
    });
    github.expect({ method: "GET", path: `${repoPath}/contents/big.yaml`, reply: { body: padded, headers: raw } });
    const client = octokit();
    const loaded = await loadRepoConfig({ octokit: client, owner, repo });
    expect(loaded).toMatchObject({ status: "valid", config: { targets: [{ name: "infra", path: "infra" }] } });
    const { data } = await client.request("GET /repos/{owner}/{repo}/contents/{path}", {
      owner,
      repo,
      path: "big.yaml",
      mediaType: { format: "raw" },
    });
    expect(String(data)).toHaveLength(padded.length);
  });
});
