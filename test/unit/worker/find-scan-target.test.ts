// A queued scan whose target was removed from the config since ends quietly
// (its scheduler goes with the push that removed it), and says so in the audit
// stream; a target still there on this job's cluster is scanned. (A target
// moved to another cluster is handed to that cluster's queue in Redis: that
// case is tested against Redis, in test/api-server.)
import { describe, expect, it } from "vitest";
import { repoConfigSchema } from "../../../src/config/schema.ts";
import type { ScanJob } from "../../../src/queue/jobs.ts";
import { findScanTarget } from "../../../src/worker/find-scan-target.ts";
import type { ScanAuditEntry } from "../../../src/worker/scan-job-audit.ts";
import type { WorkerDeps } from "../../../src/worker/worker-deps.ts";

const job = { installationId: 1, repo: "acme/gitops", target: "shop", cluster: "prod", reason: "schedule" } as ScanJob;
const revision = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

async function find(targets: unknown[]) {
  const audited: ScanAuditEntry[] = [];
  const config = repoConfigSchema.parse({ targets });
  // Neither case reaches the queues, the only dependency findScanTarget has.
  const found = await findScanTarget({
    deps: {} as WorkerDeps,
    job,
    targets: config.targets,
    revision,
    audit: async (e) => void audited.push(e),
  });
  return { found, audited };
}

describe("the job's target", () => {
  it("ends the job, audited as skipped, when the target is no longer in the config", async () => {
    const { found, audited } = await find([{ name: "other", cluster: "prod", path: "other" }]);
    expect(found).toEqual({ skipped: { outcome: "target-gone", revision, actions: [] } });
    expect(audited).toEqual([{ event: "scan-skipped", revision, outcome: "the target is no longer in the config" }]);
  });

  it("is scanned, without an audit entry, when it is still there on the job's cluster", async () => {
    const { found, audited } = await find([{ name: "shop", cluster: "prod", path: "apps/shop", mode: "heal" }]);
    expect(found).toMatchObject({ target: { name: "shop", cluster: "prod", mode: "heal" } });
    expect(audited).toEqual([]);
  });
});
