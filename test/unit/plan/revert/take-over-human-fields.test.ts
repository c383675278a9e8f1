import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { DEFAULT_HUMAN_MANAGERS } from "../../../../src/config/target-schema.ts";
import type { ManagedFieldsEntry } from "../../../../src/model/types.ts";
import { takeOverHumanFields, unionFields } from "../../../../src/plan/revert/take-over-human-fields.ts";
import { fixture } from "../../drift/drift-fixtures.ts";

const human = picomatch([...DEFAULT_HUMAN_MANAGERS], { nocase: true });
const isHuman = (manager: string) => manager !== "undrift" && human(manager);
const time = "2026-11-30T12:00:00Z";
const web = 'k:{"name":"web"}';

function takeOver(entries: ManagedFieldsEntry[] | undefined) {
  return takeOverHumanFields({ entries, fieldManager: "undrift", apiVersion: "apps/v1", isHuman, time });
}

describe("taking over fields people changed by hand", () => {
  it("moves every kubectl entry's fields into the applier's Apply entry and drops those entries", () => {
    const live = fixture("deployment-hand-edited-live");
    const result = takeOver(live.metadata.managedFields)!;
    expect(result.takenFrom).toEqual(["kubectl-edit", "kubectl-set", "kubectl-annotate"]);
    const managers = result.managedFields.map((e) => [e.manager, e.operation, e.subresource]);
    expect(managers).toEqual([
      ["undrift", "Apply", undefined],
      ["istio-sidecar-injector", "Update", undefined],
      ["kube-controller-manager", "Update", undefined],
      ["kube-controller-manager", "Update", "status"],
    ]);
    const applier = result.managedFields[0]!;
    expect(applier).toMatchObject({ apiVersion: "apps/v1", fieldsType: "FieldsV1", time });
    const container = applier.fieldsV1!["f:spec"]!["f:template"]!["f:spec"]!["f:containers"]![web]!;
    expect(container["f:image"]).toEqual({});
    expect(container["f:env"]).toHaveProperty(['k:{"name":"DEBUG"}', "f:value"]);
    expect(container["f:env"]).toHaveProperty(['k:{"name":"LOG_LEVEL"}', "f:value"]);
    expect(applier.fieldsV1!["f:metadata"]!["f:annotations"]).toEqual({ "f:team.acme.io/on-call": {} });
    expect(applier.fieldsV1!["f:metadata"]!["f:labels"]).toEqual({ "f:app": {}, "f:undrift.dev/target": {} });
  });

  it("leaves controllers' entries exactly as they were", () => {
    const live = fixture("deployment-hand-edited-live");
    const before = live.metadata.managedFields!.filter(
      (e) => e.manager?.startsWith("kube-") || e.manager?.startsWith("istio"),
    );
    const after = takeOver(live.metadata.managedFields)!.managedFields.filter((e) => e.manager !== "undrift");
    expect(after).toEqual(before);
  });

  it("takes a person's kubectl scale (the scale subresource) but never a status entry", () => {
    const entries: ManagedFieldsEntry[] = [
      { manager: "undrift", operation: "Apply", apiVersion: "apps/v1", fieldsV1: { "f:spec": { "f:selector": {} } } },
      {
        manager: "kubectl",
        operation: "Update",
        apiVersion: "apps/v1",
        subresource: "scale",
        fieldsV1: { "f:spec": { "f:replicas": {} } },
      },
      { manager: "kubectl-status-patcher", operation: "Update", subresource: "status", fieldsV1: { "f:status": {} } },
    ];
    const result = takeOver(entries)!;
    expect(result.takenFrom).toEqual(["kubectl (scale)"]);
    expect(result.managedFields).toEqual([
      {
        manager: "undrift",
        operation: "Apply",
        apiVersion: "apps/v1",
        time,
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { "f:selector": {}, "f:replicas": {} } },
      },
      entries[2],
    ]);
  });

  it("makes an Apply entry for the applier where it had none, in the first person's place", () => {
    const entries: ManagedFieldsEntry[] = [
      {
        manager: "cert-manager",
        operation: "Update",
        apiVersion: "v1",
        fieldsV1: { "f:metadata": { "f:annotations": { "f:a": {} } } },
      },
      { manager: "kubectl-create", operation: "Update", apiVersion: "v1", fieldsV1: { "f:data": { "f:KEY": {} } } },
    ];
    const result = takeOverHumanFields({ entries, fieldManager: "undrift", apiVersion: "v1", isHuman, time })!;
    expect(result.managedFields).toEqual([
      entries[0],
      {
        manager: "undrift",
        operation: "Apply",
        apiVersion: "v1",
        time,
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:KEY": {} } },
      },
    ]);
  });

  it("changes nothing when no person's manager owns a field", () => {
    expect(takeOver(fixture("deployment-in-sync-live").metadata.managedFields)).toBeUndefined();
    expect(takeOver(undefined)).toBeUndefined();
  });

  it("treats the target's own field manager as the applier, even when it matches a human pattern", () => {
    const entries: ManagedFieldsEntry[] = [{ manager: "kubectl-ci", operation: "Apply", fieldsV1: { "f:data": {} } }];
    const own = (m: string) => m !== "kubectl-ci" && human(m);
    expect(
      takeOverHumanFields({ entries, fieldManager: "kubectl-ci", apiVersion: "v1", isHuman: own, time }),
    ).toBeUndefined();
  });
});

describe("the union of two field sets", () => {
  it("keeps every path of both, merging shared prefixes, without changing either", () => {
    const a = { "f:spec": { "f:replicas": {}, "f:template": { ".": {} } } };
    const b = { "f:spec": { "f:template": { "f:metadata": {} } }, "f:metadata": {} };
    expect(unionFields(a, b)).toEqual({
      "f:spec": { "f:replicas": {}, "f:template": { ".": {}, "f:metadata": {} } },
      "f:metadata": {},
    });
    expect(a).toEqual({ "f:spec": { "f:replicas": {}, "f:template": { ".": {} } } });
  });
});
