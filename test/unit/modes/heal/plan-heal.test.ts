// What heal applies when some fields are fought over: a field a program keeps
// changing back stops being healed after K heals, and only that field; a
// person's edit or undrift's own field manager never counts as a fight.
import { describe, expect, it } from "vitest";
import { planHeal } from "../../../../src/modes/heal/plan-heal.ts";
import { deployment, fightWatch, healScan, IMAGE, key } from "./heal-scan.ts";

const byHpa = { path: "/spec/replicas", desired: 3, live: 5, manager: "hpa-controller" };
const byHand = {
  path: IMAGE,
  desired: "ghcr.io/acme/web:1.4.2",
  live: "ghcr.io/acme/web:1.5.0",
  manager: "kubectl-edit",
};

describe("heal's plan", () => {
  it("applies drifted and missing objects whole while no field has been fought K times, and leaves in-sync ones alone", async () => {
    const scan = await healScan([
      { desired: deployment("web", 3), changes: [byHpa, byHand] },
      { desired: deployment("api", 2), missing: true },
      { desired: deployment("quiet", 1) },
    ]);
    const { watch } = fightWatch({ scan, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 2 } });
    const { objects, fought } = await planHeal({ scan, watch });
    expect(objects.map((o) => [o.desired.object.metadata.name, o.status, o.changes])).toEqual([
      ["web", "drifted", ["/spec/replicas", IMAGE]],
      ["api", "missing", []],
    ]);
    expect(fought).toEqual([]);
  });

  it("stops healing a field a program changed back K times: the rest of the object is still applied, that field is left live", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa, byHand] }]);
    const { watch } = fightWatch({ scan, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 3 } });
    const { objects, fought } = await planHeal({ scan, watch });
    expect(objects).toHaveLength(1);
    expect(objects[0]!.changes).toEqual([IMAGE]);
    // Without replicas in the apply, the HPA's value stays: undrift no longer takes the field back.
    expect(objects[0]!.desired.object.spec).not.toHaveProperty("replicas");
    expect(scan.desired[0]!.object.spec).toHaveProperty("replicas", 3);
    expect(fought).toEqual([
      { object: deployment("web", 3), fields: [{ path: "/spec/replicas", manager: "hpa-controller", heals: 3 }] },
    ]);
  });

  it("does not apply an object whose only drift is fought, but still reports the fight", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa] }]);
    const { watch } = fightWatch({ scan, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 5 } });
    const { objects, fought } = await planHeal({ scan, watch });
    expect(objects).toEqual([]);
    expect(fought.map((f) => f.fields.map((x) => x.path))).toEqual([["/spec/replicas"]]);
  });

  it("follows the configured K: two heals are a fight when the server is set to two", async () => {
    const scan = await healScan([{ desired: deployment("web", 3), changes: [byHpa] }]);
    const { watch } = fightWatch({ scan, heals: 2, counts: { [`${key("web")} /spec/replicas hpa-controller`]: 2 } });
    expect((await planHeal({ scan, watch })).objects).toEqual([]);
  });

  it("never counts a person's edit or undrift's own applier as a fight, however often healed", async () => {
    const byUndrift = { ...byHpa, manager: "undrift" };
    const scan = await healScan([
      { desired: deployment("web", 3), changes: [byHand] },
      { desired: deployment("api", 3), changes: [byUndrift] },
    ]);
    const counts = {
      [`${key("web")} ${IMAGE} kubectl-edit`]: 9,
      [`${key("api")} /spec/replicas undrift`]: 9,
    };
    const { objects, fought } = await planHeal({ scan, watch: fightWatch({ scan, counts }).watch });
    expect(objects.map((o) => o.desired.object.metadata.name)).toEqual(["web", "api"]);
    expect(fought).toEqual([]);
  });
});
