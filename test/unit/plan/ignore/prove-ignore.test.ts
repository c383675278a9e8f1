// The proof of an ignore rule, from the scans before and after it: what it
// hides, a planned field it does not hide, and drift it would make appear on
// the objects it reaches; what changed elsewhere is not the rule's doing.
import { describe, expect, it } from "vitest";
import type { Change, DriftReport, ResourceReport } from "../../../../src/model/types.ts";
import type { PlannedField, PlanRule } from "../../../../src/plan/ignore/plan-ignore-rule.ts";
import { proveIgnore } from "../../../../src/plan/ignore/prove-ignore.ts";

const obj = (name: string, paths: string[]): ResourceReport => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "shop",
  name,
  status: paths.length > 0 ? "drifted" : "in-sync",
  changes: paths.map((path): Change => ({ path, live: 1 })),
});
const report = (resources: ResourceReport[]): DriftReport => ({
  target: "t",
  revision: "r",
  summary: { inSync: 0, drifted: 0, missing: 0, orphaned: 0 },
  resources,
  problems: [],
  fingerprint: "f",
});
const rule: PlanRule = {
  group: "apps",
  kind: "Deployment",
  name: "web",
  jsonPointers: ["/spec/replicas"],
  jqPathExpressions: [],
  managedFieldsManagers: [],
};
const planned: PlannedField[] = [
  {
    tick: { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web", path: "/spec/replicas" },
    path: "/spec/replicas",
    by: "jsonPointer",
    value: "/spec/replicas",
    rule: 0,
  },
];
const web = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };

describe("proveIgnore", () => {
  it.each([
    {
      case: "the field gone, the rest as before: proved",
      before: [obj("web", ["/spec/replicas", "/spec/paused"]), obj("api", ["/spec/x"])],
      after: [obj("web", ["/spec/paused"]), obj("api", [])],
      want: { hidden: [{ object: web, paths: ["/spec/replicas"] }], still: [], appeared: [] },
    },
    {
      case: "the field still reported: not proved",
      before: [obj("web", ["/spec/replicas"])],
      after: [obj("web", ["/spec/replicas"])],
      want: { hidden: [], still: [{ object: web, path: "/spec/replicas" }], appeared: [] },
    },
    {
      case: "new drift on an object the rule reaches: not proved",
      before: [obj("web", ["/spec/replicas"])],
      after: [obj("web", ["/spec/template/spec/containers/0/image"])],
      want: {
        hidden: [{ object: web, paths: ["/spec/replicas"] }],
        still: [],
        appeared: [{ object: web, path: "/spec/template/spec/containers/0/image" }],
      },
    },
  ])("$case", ({ before, after, want }) => {
    expect(proveIgnore({ before: report(before), after: report(after), planned, rules: [rule] })).toEqual(want);
  });
});
