// Warn mode's tracking issue when a scan finds no drift but could not compare
// some objects: the drift the issue tracks may hide there, so the issue is left
// as it is (closing it would be a guess), and the check run says why. Every
// other path of warnDrift keeps the number and first-seen revision in
// Redis, so it is tested against Redis in test/api-server/app-warn.test.ts.
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../../src/config/target-schema.ts";
import { warnDrift } from "../../../../src/modes/warn/warn-drift.ts";
import type { WorkerDeps } from "../../../../src/worker/worker-deps.ts";
import { owner, repo } from "../../../helpers/github/responses.ts";
import { useGitHubMock } from "../../../helpers/github-mock.ts";
import { sampleReport } from "../../report/sample-report.ts";

const github = useGitHubMock();

describe("warn mode's tracking issue", () => {
  it("is left as it is, without a request to GitHub, when no drift was found but some objects could not be compared", async () => {
    const report = { ...sampleReport(), resources: [], summary: { inSync: 0, drifted: 0, missing: 0, orphaned: 0 } };
    report.problems = [{ group: "", kind: "Secret", message: "cannot list secrets: forbidden" }];
    const target = targetSchema.parse({ name: "infra", cluster: "prod", path: "infra" });
    // This path returns before the queues' Redis is reached: deps carry nothing.
    const deps = {} as WorkerDeps;
    const result = await warnDrift({ deps, octokit: github.octokit(), owner, repo, report, target, renderer: "plain" });
    expect(result).toEqual({
      done: [],
      lines: ["Some objects could not be compared, so an open tracking issue is left as it is."],
    });
    expect(github.requests).toEqual([]);
  });
});
