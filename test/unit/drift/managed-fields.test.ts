import { describe, expect, it } from "vitest";
import { latest, Ownership, ownedPaths } from "../../../src/drift/managed-fields.ts";
import { entryOf, fixture } from "./drift-fixtures.ts";

const web = 'k:{"name":"web"}';
const containers = ["f:spec", "f:template", "f:spec", "f:containers"];

describe("reading fieldsV1", () => {
  it("lists the leaves a manager owns, and list items it owns as a whole", () => {
    const live = fixture("deployment-hand-edited-live");
    expect(ownedPaths(entryOf(live, "kubectl-set").fieldsV1)).toEqual([
      [...containers, web, "f:env", 'k:{"name":"DEBUG"}'],
      [...containers, web, "f:env", 'k:{"name":"DEBUG"}', "f:name"],
      [...containers, web, "f:env", 'k:{"name":"DEBUG"}', "f:value"],
    ]);
  });

  it("does not count a map a manager merely created as owning every key in it", () => {
    const live = fixture("configmap-dropped-key-live");
    expect(ownedPaths(entryOf(live, "reloader").fieldsV1)).toEqual([
      ["f:metadata", "f:annotations", "f:reloader.stakater.com/last-reloaded-from"],
    ]);
  });

  it("owns an atomic field such as a label selector as one leaf", () => {
    const live = fixture("deployment-in-sync-live");
    expect(ownedPaths(entryOf(live, "undrift").fieldsV1)).toContainEqual(["f:spec", "f:selector"]);
  });
});

describe("who owns a field", () => {
  it("names the manager and when it wrote the field", () => {
    const ownership = Ownership.of(fixture("deployment-hand-edited-live"));
    expect(ownership.ownersOf([...containers, web, "f:image"])).toEqual([
      { manager: "kubectl-edit", operation: "Update", time: "2026-11-30T10:02:11Z" },
    ]);
    expect(ownership.ownersOf(["f:metadata", "f:annotations", "f:team.acme.io/on-call"])).toEqual([
      { manager: "kubectl-annotate", operation: "Update", time: "2026-11-30T10:07:03Z" },
    ]);
  });

  it("leaves status out: no status field is ever drift", () => {
    const ownership = Ownership.of(fixture("deployment-in-sync-live"));
    expect(ownership.owned.some((o) => o.path[0] === "f:status")).toBe(false);
  });

  it("keeps a scale-subresource entry: replicas set through it belong to its manager", () => {
    const ownership = Ownership.of(fixture("deployment-scaled-live"));
    expect(ownership.ownersOf(["f:spec", "f:replicas"])).toEqual([
      { manager: "hpa-controller", operation: "Update", time: "2026-11-30T11:30:00Z" },
    ]);
  });

  it("credits a change inside an item to the manager that owns the item", () => {
    const ownership = Ownership.of(fixture("deployment-hand-edited-live"));
    expect(ownership.attribute([...containers, web, "f:env", 'k:{"name":"DEBUG"}', "f:value"])?.manager).toBe(
      "kubectl-set",
    );
  });

  it("credits a change to a map to the manager that last wrote a field in it", () => {
    const ownership = Ownership.of(fixture("deployment-hand-edited-live"));
    expect(ownership.attribute(["f:metadata", "f:annotations"])).toEqual({
      manager: "kubectl-annotate",
      operation: "Update",
      time: "2026-11-30T10:07:03Z",
    });
  });

  it("credits nobody for a field no manager owns, such as a defaulted one", () => {
    const ownership = Ownership.of(fixture("deployment-in-sync-live"));
    expect(ownership.attribute(["f:spec", "f:revisionHistoryLimit"])).toBeUndefined();
  });

  it("learns list keys from the managers' k: tokens", () => {
    const ownership = Ownership.of(fixture("deployment-in-sync-live"));
    expect(ownership.listKeys.get([...containers, web, "f:ports"].join("\u0000"))).toEqual([
      "containerPort",
      "protocol",
    ]);
  });

  it("prefers the latest writer, and an entry without a time is the oldest", () => {
    const scale = { manager: "kubectl", operation: "Update" };
    const hpa = { manager: "hpa-controller", operation: "Update", time: "2026-11-30T11:30:00Z" };
    expect(latest([scale, hpa])).toBe(hpa);
    expect(latest([hpa, scale])).toBe(hpa);
    expect(latest([scale])).toBe(scale);
    expect(latest([])).toBeUndefined();
  });
});
