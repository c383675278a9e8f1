// Each thing the modes did is one audit entry, in the order it was done, with
// the objects, fields and managers it concerned; the job's `actions` are their
// summaries, which the status page and the job's result show.
import { describe, expect, it } from "vitest";
import { auditModeActions } from "../../../src/worker/audit-mode-actions.ts";
import type { ScanAuditEntry } from "../../../src/worker/scan-job-audit.ts";

describe("auditing what the modes did", () => {
  it("writes one entry per action, in order, with the cluster and revision, and returns their summaries", async () => {
    const audited: ScanAuditEntry[] = [];
    const mode = {
      lines: ["not audited"],
      done: [
        {
          event: "heal",
          summary: "healed apps/v1 Deployment shop/web",
          objects: ["apps/v1 Deployment shop/web"],
          fields: ["Deployment/shop/web:/spec/replicas"],
          managers: ["hpa-controller"],
        },
        { event: "issue-updated", summary: "updated issue #7", url: "https://github.com/acme/gitops/issues/7" },
      ],
    };
    const actions = await auditModeActions({
      audit: async (e) => void audited.push(e),
      mode,
      cluster: "prod",
      revision: "abc",
    });
    expect(actions).toEqual(["healed apps/v1 Deployment shop/web", "updated issue #7"]);
    expect(audited).toEqual([
      {
        event: "heal",
        cluster: "prod",
        revision: "abc",
        outcome: "healed apps/v1 Deployment shop/web",
        objects: ["apps/v1 Deployment shop/web"],
        fields: ["Deployment/shop/web:/spec/replicas"],
        managers: ["hpa-controller"],
      },
      {
        event: "issue-updated",
        cluster: "prod",
        revision: "abc",
        outcome: "updated issue #7",
        url: "https://github.com/acme/gitops/issues/7",
      },
    ]);
  });
});
