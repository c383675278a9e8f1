import { describe, expect, it } from "vitest";
import type { ObjectRecord } from "../../../../src/model/change-set.ts";
import type { DriftReport } from "../../../../src/model/types.ts";
import {
  driftPeople,
  type RevertMergeOutcome,
  revertMergeComment,
} from "../../../../src/report/app/revert-merge-body.ts";

const record = (name: string, extra: Partial<ObjectRecord>): ObjectRecord => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "shop",
  name,
  action: "configured",
  ...extra,
});
const outcome = (extra: Partial<RevertMergeOutcome>): RevertMergeOutcome => ({
  target: "infra",
  cluster: "prod-eu",
  revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  applied: [],
  pruned: [],
  held: [],
  settled: [],
  ...extra,
});

describe("the merged revert pull request's comment", () => {
  it("lists what was applied with its fields and health, what was refused, pruned and already in sync", () => {
    const body = revertMergeComment(
      outcome({
        applied: [
          record("web", {
            changes: ["/spec/replicas"],
            health: { status: "not-ready", message: "1 of 3 updated", waited: true },
          }),
          record("api", { action: "failed", reason: "admission webhook denied" }),
        ],
        pruned: [record("old", { action: "deleted", reason: "propagation Background" })],
        settled: ["apps/v1 Deployment shop/cache"],
      }),
    );
    expect(body).toBe(
      [
        "undrift applied this pull request's record (cluster `prod-eu`, target `infra`, revision `4b825dc642cb`).",
        "**Applied**\n\n- `apps/v1 Deployment shop/web`: configured `/spec/replicas`; health: not-ready (1 of 3 updated)",
        "**Not applied** (refused or skipped by the cluster)\n\n- `apps/v1 Deployment shop/api`: failed: admission webhook denied",
        "**Pruned** (orphans this pull request approved)\n\n- `apps/v1 Deployment shop/old`: deleted (propagation Background)",
        "**Already in sync** (nothing to apply)\n\n- `apps/v1 Deployment shop/cache`",
        "**Health:** 1 object(s) not applied.",
      ].join("\n\n"),
    );
  });

  it("lists an approved orphan a finalizer still holds as deleting under Pruned, not as deleted or kept", () => {
    const reason = "deletion pending: finalizer example.com/hold holds it until its controller removes it";
    const body = revertMergeComment(outcome({ pruned: [record("held", { action: "deleting", reason })] }));
    expect(body).toContain(
      `**Pruned** (orphans this pull request approved)\n\n- \`apps/v1 Deployment shop/held\`: deleting (${reason})`,
    );
    expect(body).not.toContain("**Skipped**");
  });

  it("names who made the drift it reverted, from the cluster's records: who changed a field, who deleted an object", () => {
    const at = "2026-11-30T10:00:00Z";
    const report = {
      target: "infra",
      revision: "4b825dc642cb",
      summary: { inSync: 1, drifted: 1, missing: 1, orphaned: 0 },
      resources: [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          namespace: "shop",
          name: "web",
          status: "drifted",
          changes: [
            {
              path: "/spec/replicas",
              desired: 3,
              live: 5,
              manager: "kubectl-patch",
              changedAt: at,
              actor: { username: "alice", groups: ["sre", "system:authenticated"], at, confidence: "exact" },
            },
          ],
        },
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          namespace: "shop",
          name: "api",
          status: "missing",
          changes: [],
          deletedBy: { username: "bob", groups: ["dev"], at, confidence: "exact" },
        },
        { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "cache", status: "in-sync", changes: [] },
      ],
    } as unknown as DriftReport;
    const people = driftPeople(report);
    expect(people).toEqual({
      "apps/v1 Deployment shop/web": "changed by alice (sre)",
      "apps/v1 Deployment shop/api": "deleted by bob (dev)",
    });
    const body = revertMergeComment(
      outcome({
        applied: [record("web", { changes: ["/spec/replicas"] }), record("api", { action: "created" })],
        people,
      }),
    );
    expect(body).toContain(
      "**Applied**\n\n- `apps/v1 Deployment shop/web`: configured `/spec/replicas`; changed by alice (sre)\n" +
        "- `apps/v1 Deployment shop/api`: created; deleted by bob (dev)",
    );
  });

  it("says nothing was applied, and why, when the merge was refused", () => {
    expect(revertMergeComment(outcome({ refused: "the record names a target that moved" }))).toBe(
      "**Nothing was applied** (cluster `prod-eu`, target `infra`, revision `4b825dc642cb`): the record names a target that moved",
    );
  });

  it("says every applied object is healthy, and an empty apply applied nothing", () => {
    expect(revertMergeComment(outcome({}))).toContain(
      "**Applied**\n\n- nothing\n\n**Health:** every applied object is healthy.",
    );
  });
});
