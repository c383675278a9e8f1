// What heal says it healed, and which heals count towards a fight: only an
// apply that went through, only fields it set back, only a program's change.
// A failed apply must not move the count, or a broken object would read as a fight.
import { describe, expect, it } from "vitest";
import type { ObjectRecord } from "../../../../src/model/change-set.ts";
import { countHeals } from "../../../../src/modes/heal/count-heals.ts";
import { planHeal } from "../../../../src/modes/heal/plan-heal.ts";
import type { PlannedObject } from "../../../../src/plan/revert/plan-revert.ts";
import { deployment, fightWatch, healScan, IMAGE, key } from "./heal-scan.ts";

const byHpa = { path: "/spec/replicas", desired: 3, live: 5, manager: "hpa-controller" };
const byHand = {
  path: IMAGE,
  desired: "ghcr.io/acme/web:1.4.2",
  live: "ghcr.io/acme/web:1.5.0",
  manager: "kubectl-edit",
};

const record = (planned: PlannedObject, action: ObjectRecord["action"], reason?: string): ObjectRecord => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "shop",
  name: planned.desired.object.metadata.name,
  action,
  ...(reason ? { reason } : {}),
});

describe("counting heals", () => {
  it("keeps one heal per field a program had changed, and shows who changed each field and how often it was healed", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa, byHand] }]);
    const { watch, recorded } = fightWatch({ scan, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 1 } });
    const { objects } = await planHeal({ scan, watch });
    const healed = await countHeals({
      entries: [{ planned: objects[0]!, record: record(objects[0]!, "configured") }],
      watch,
    });
    expect(recorded).toEqual([`${key("web")} /spec/replicas hpa-controller`]);
    expect(healed).toEqual([
      {
        object: deployment("web", 3),
        action: "configured",
        fields: [
          { path: "/spec/replicas", manager: "hpa-controller", heals: 2 },
          { path: IMAGE, manager: "kubectl-edit" },
        ],
      },
    ]);
  });

  it("counts nothing for an apply that failed, and keeps its reason for the tracking issue", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa] }]);
    const { watch, recorded } = fightWatch({ scan });
    const { objects } = await planHeal({ scan, watch });
    const entries = [{ planned: objects[0]!, record: record(objects[0]!, "failed", "admission webhook denied") }];
    const healed = await countHeals({ entries, watch });
    expect(recorded).toEqual([]);
    expect(healed[0]).toMatchObject({
      action: "failed",
      reason: "admission webhook denied",
      fields: [{ path: "/spec/replicas" }],
    });
    expect(healed[0]!.fields[0]).not.toHaveProperty("heals");
  });

  it("neither lists nor counts a fought field, which heal left out of the apply", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa, byHand] }]);
    const { watch, recorded } = fightWatch({ scan, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 3 } });
    const { objects } = await planHeal({ scan, watch });
    const healed = await countHeals({
      entries: [{ planned: objects[0]!, record: record(objects[0]!, "configured") }],
      watch,
    });
    expect(healed[0]!.fields.map((f) => f.path)).toEqual([IMAGE]);
    expect(recorded).toEqual([]);
  });
});
