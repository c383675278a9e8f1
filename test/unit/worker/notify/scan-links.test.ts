// Where a notification's reader can act, read from the check run's address
// and the lines the modes gave the check run: a GitHub Enterprise host comes
// out as it is, and a closed PR's line is not a place to act.
import { describe, expect, it } from "vitest";
import { scanLinks } from "../../../../src/worker/notify/scan-links.ts";

describe("a scan's links", () => {
  it("takes the repository from the check run's address, on GitHub Enterprise too", () => {
    expect(scanLinks({ checkUrl: "https://ghe.example/acme/gitops/runs/42", mode: { done: [], lines: [] } })).toEqual({
      check: "https://ghe.example/acme/gitops/runs/42",
      repository: "https://ghe.example/acme/gitops",
    });
  });

  it("links the tracking issue and the pull request the modes keep, the first of each, and not a closed PR", () => {
    const lines = [
      "Pull request #3 was closed: the drift is gone.",
      "Tracking issue: #7 https://github.com/acme/gitops/issues/7",
      "Pull request: #12 https://github.com/acme/gitops/pull/12",
      "Pull request: #13 https://github.com/acme/gitops/pull/13",
    ];
    expect(scanLinks({ mode: { done: [], lines } })).toEqual({
      issue: "https://github.com/acme/gitops/issues/7",
      pullRequest: "https://github.com/acme/gitops/pull/12",
    });
  });
});
