// The preview's contract words (DESIGN: preview JSON, comment, terminal) come from the change-set's actions.
import { describe, expect, it } from "vitest";
import type { PruneGuard } from "../../../src/model/change-set.ts";
import { previewAction, previewFinding, pruneAction } from "../../../src/model/preview-report.ts";

describe("the preview's words", () => {
  it("says create, change and unchanged for missing, drifted and in-sync objects, and reads them back", () => {
    const findings = ["missing", "drifted", "in-sync"] as const;
    expect(findings.map(previewAction)).toEqual(["create", "change", "unchanged"]);
    expect(findings.map((f) => previewFinding(previewAction(f)))).toEqual(findings);
  });

  it("says delete for a pruned orphan, and orphan, keep or refused by the guard that held one back", () => {
    const guards: PruneGuard[] = [
      "not-requested",
      "untracked",
      "opted-out",
      "in-use",
      "empty-render",
      "skipped-documents",
      "selector",
      "kind",
      "max-percent",
    ];
    expect(pruneAction({ action: "deleted" })).toBe("delete");
    expect(guards.map((guard) => pruneAction({ action: "skipped", guard }))).toEqual([
      "orphan",
      "keep",
      "keep",
      "keep",
      "refused",
      "refused",
      "refused",
      "refused",
      "refused",
    ]);
    expect(pruneAction({ action: "skipped" })).toBe("refused");
  });
});
