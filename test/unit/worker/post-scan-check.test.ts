// The check run `undrift/<target>` a scan leaves on the head, as the reader
// sees it: drift fails it; its summary says where to act, that the last valid
// config stood in, and which mode rules gave each object; an unchanged check
// run is neither written again nor audited.
import { describe, expect, it } from "vitest";
import type { ConfigError } from "../../../src/config/config-error.ts";
import { targetSchema } from "../../../src/config/target-schema.ts";
import type { ModeShare } from "../../../src/plan/mode-shares.ts";
import { postScanCheck } from "../../../src/worker/post-scan-check.ts";
import type { ResolvedScanTarget } from "../../../src/worker/resolve-scan-target.ts";
import { checkRunReply, headSha, owner, repo, repoPath, treeSha } from "../../helpers/github/responses.ts";
import { type LoggedRequest, useGitHubMock } from "../../helpers/github-mock.ts";
import { sampleReport } from "../report/sample-report.ts";

const github = useGitHubMock();
const target = targetSchema.parse({ name: "infra", cluster: "prod", path: "infra", mode: "codify" });
const mode = { done: [], lines: ["Pull request: #12 https://github.com/acme/gitops/pull/12"] };
const shares: ModeShare[] = [
  { mode: "codify", objects: ["apps/v1 Deployment shop/web"], scan: { target, report: sampleReport(), pairings: [] } },
  { mode: "warn", objects: ["v1 Secret shop/db"], scan: { target, report: sampleReport(), pairings: [] } },
];

function post(audited: unknown[], invalid?: ConfigError) {
  // The check run is written through `reads` on `head`; nothing else of the resolved target is read.
  const resolved = {
    reads: github.octokit(),
    owner,
    repo,
    head: { branch: "main", sha: headSha, treeSha },
    target,
    ...(invalid ? { invalid } : {}),
  } as unknown as ResolvedScanTarget;
  return postScanCheck({
    resolved,
    report: sampleReport(),
    mode,
    shares,
    audit: async (entry) => void audited.push(entry),
  });
}

const listRuns = (runs: unknown[]) =>
  github.expect({
    method: "GET",
    path: `${repoPath}/commits/${headSha}/check-runs`,
    query: { check_name: "undrift/infra" },
    reply: { body: { total_count: runs.length, check_runs: runs } },
  });

/** The check run's creation; `request` is what was sent. */
function expectCreate(): { request?: LoggedRequest } {
  const created: { request?: LoggedRequest } = {};
  github.expect({
    method: "POST",
    path: `${repoPath}/check-runs`,
    reply: (request) => {
      created.request = request;
      return { status: 201, body: checkRunReply({ name: "undrift/infra" }) };
    },
  });
  return created;
}

describe("the scan's check run", () => {
  it("fails on drift, with where to act, the stand-in config and each object's mode in its summary, and is audited", async () => {
    listRuns([]);
    const created = expectCreate();
    const audited: unknown[] = [];
    const invalid = { message: ".github/undrift.yml:3: targets[0].mode: invalid value" } as ConfigError;
    const result = await post(audited, invalid);
    const json = created.request?.json as { name: string; conclusion: string; output: { summary: string } };
    expect(json).toMatchObject({ name: "undrift/infra", conclusion: "failure" });
    expect(json.output.summary.split("\n")).toEqual([
      "Target `infra` on cluster `prod`, mode `codify`, revision `4b825dc642cb`.",
      "",
      "Pull request: #12 https://github.com/acme/gitops/pull/12",
      "**Note:** `.github/undrift.yml` at this commit is invalid (.github/undrift.yml:3: targets[0].mode: invalid value); this scan used the repository's last valid config.",
      "Per-object `rules` picked the mode of each object:",
      "",
      "- `codify`: `apps/v1 Deployment shop/web`",
      "- `warn`: `v1 Secret shop/db`",
      "",
    ]);
    expect(result).toEqual({
      actions: ["created check run undrift/infra"],
      url: "https://github.com/acme/gitops/runs/11",
    });
    expect(audited).toEqual([
      {
        event: "check-run",
        cluster: "prod",
        revision: headSha,
        outcome: "created: failure",
        url: "https://github.com/acme/gitops/runs/11",
      },
    ]);
  });

  it("is not written again nor audited when the same scan finds the same thing", async () => {
    listRuns([]);
    const created = expectCreate();
    await post([]);
    const { external_id } = created.request!.json as { external_id: string };
    listRuns([checkRunReply({ name: "undrift/infra", external_id })]);
    const audited: unknown[] = [];
    const result = await post(audited);
    expect(result).toEqual({ actions: [], url: "https://github.com/acme/gitops/runs/11" });
    expect(audited).toEqual([]);
    expect(github.writes()).toHaveLength(1);
  });
});
