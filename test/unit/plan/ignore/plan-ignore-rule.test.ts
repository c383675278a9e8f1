// The narrowest ignoreDifferences rule for a ticked field: scoped by group, kind
// and name (namespace only when the name is not unique), by pointer or by the
// controller that writes the field, merged into a rule of the same scope,
// nothing when a rule already covers it, and a reason when no rule can hide it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rulesFor, stripIgnored } from "../../../../src/drift/ignore-rules.ts";
import { Ownership } from "../../../../src/drift/managed-fields.ts";
import type { Change, DriftReport, ResourceReport } from "../../../../src/model/types.ts";
import { type PlanRule, planIgnoreRule, writtenRule } from "../../../../src/plan/ignore/plan-ignore-rule.ts";

const isController = (m: string) => m !== "undrift" && !m.startsWith("kubectl");
const rule = (r: Partial<PlanRule>): PlanRule => ({
  jsonPointers: [],
  jqPathExpressions: [],
  managedFieldsManagers: [],
  ...r,
});
const resource = (r: Partial<ResourceReport> & { changes?: Change[] }): ResourceReport => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "shop",
  name: "web",
  status: "drifted",
  changes: [],
  ...r,
});
const report = (resources: ResourceReport[]): DriftReport => ({
  target: "infra",
  revision: "r",
  summary: { inSync: 0, drifted: resources.length, missing: 0, orphaned: 0 },
  resources,
  problems: [],
  fingerprint: "f",
});
const web = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };

describe("planIgnoreRule", () => {
  it.each([
    {
      case: "a field a person changed: by its pointer, scoped by group, kind and name",
      manager: "kubectl-edit",
      want: { group: "apps", kind: "Deployment", name: "web", jsonPointers: ["/spec/replicas"] },
    },
    {
      case: "a field a controller wrote: by that controller",
      manager: "hpa-controller",
      want: { group: "apps", kind: "Deployment", name: "web", managedFieldsManagers: ["hpa-controller"] },
    },
    {
      case: "a field undrift's applier owns (Git dropped it): by its pointer",
      manager: "undrift",
      want: { group: "apps", kind: "Deployment", name: "web", jsonPointers: ["/spec/replicas"] },
    },
  ])("$case", ({ manager, want }) => {
    const plan = planIgnoreRule({
      report: report([resource({ changes: [{ path: "/spec/replicas", desired: 2, live: 4, manager }] })]),
      rules: [],
      ticks: [{ ...web, path: "/spec/replicas" }],
      isController,
    });
    expect(plan.changed).toEqual([0]);
    expect(plan.rules.map(writtenRule)).toEqual([want]);
    expect(plan.refused).toEqual([]);
  });

  it("adds the namespace only when another namespace of the target has an object of the same name", () => {
    const changes = [{ path: "/data/a", live: "x", manager: "kubectl" }];
    const cm = { apiVersion: "v1", kind: "ConfigMap", name: "app" };
    const plan = planIgnoreRule({
      report: report([
        resource({ ...cm, namespace: "a", changes }),
        resource({ ...cm, namespace: "b", status: "in-sync" }),
      ]),
      rules: [],
      ticks: [{ ...cm, namespace: "a", path: "/data/a" }],
      isController,
    });
    expect(plan.rules.map(writtenRule)).toEqual([
      { group: "", kind: "ConfigMap", name: "app", namespace: "a", jsonPointers: ["/data/a"] },
    ]);
  });

  it("merges into an existing rule of the same scope instead of adding a second one", () => {
    const existing = [
      rule({ kind: "Service", jsonPointers: ["/spec/x"] }),
      rule({ group: "apps", kind: "Deployment", name: "web", jsonPointers: ["/spec/paused"] }),
    ];
    const plan = planIgnoreRule({
      report: report([
        resource({
          changes: [
            { path: "/spec/replicas", live: 4, manager: "kubectl" },
            { path: "/metadata/annotations/a", live: "1", manager: "kubectl" },
          ],
        }),
      ]),
      rules: existing,
      ticks: [
        { ...web, path: "/spec/replicas" },
        { ...web, path: "/metadata/annotations/a" },
        { ...web, path: "/spec/replicas" },
      ],
      isController,
    });
    expect(plan.changed).toEqual([1]);
    expect(plan.rules).toHaveLength(2);
    expect(plan.rules[1]?.jsonPointers).toEqual(["/spec/paused", "/spec/replicas", "/metadata/annotations/a"]);
    // The input is not changed.
    expect(existing[1]?.jsonPointers).toEqual(["/spec/paused"]);
  });

  it("adds nothing for a field an existing rule already hides", () => {
    const plan = planIgnoreRule({
      report: report([resource({ status: "in-sync" })]),
      rules: [rule({ group: "apps", kind: "Deployment", jsonPointers: ["/spec"] })],
      ticks: [{ ...web, path: "/spec/replicas" }],
      isController,
    });
    expect(plan).toMatchObject({ changed: [], covered: [{ rule: 0 }], refused: [] });
  });

  it.each([
    { status: "missing" as const, reason: /missing from the cluster/ },
    { status: "orphaned" as const, reason: /orphan/ },
    { status: "in-sync" as const, reason: /not drift in the current scan/ },
  ])("refuses a tick of a $status object, saying why", ({ status, reason }) => {
    const plan = planIgnoreRule({
      report: report([resource({ status })]),
      rules: [],
      ticks: [{ ...web, path: "/spec/replicas" }],
      isController,
    });
    expect(plan.changed).toEqual([]);
    expect(plan.refused).toEqual([{ tick: { ...web, path: "/spec/replicas" }, reason: expect.stringMatching(reason) }]);
  });

  it("ignores a whole object by each of its changes: controllers' by manager, the rest by pointer", () => {
    const plan = planIgnoreRule({
      report: report([
        resource({
          changes: [
            { path: "/spec/replicas", live: 4, manager: "hpa-controller" },
            { path: "/spec/paused", live: true, manager: "kubectl-patch" },
          ],
        }),
      ]),
      rules: [],
      ticks: [web],
      isController,
    });
    expect(plan.rules.map(writtenRule)).toEqual([
      {
        group: "apps",
        kind: "Deployment",
        name: "web",
        jsonPointers: ["/spec/paused"],
        managedFieldsManagers: ["hpa-controller"],
      },
    ]);
  });

  // Property: whatever the fields and managers, the planned rule reaches the ticked object and only objects of
  // its group, kind and name, and stripping it removes every ticked pointer ticked by pointer.
  it("always plans a rule that reaches the ticked object, hides its pointer, and reaches no other name", () => {
    const segment = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("kubectl-edit", "undrift", "some-controller"),
        fc.constantFrom("web", "api"),
        (segments, manager, other) => {
          const path = `/${segments.join("/")}`;
          const plan = planIgnoreRule({
            report: report([resource({ changes: [{ path, live: 1, manager }] })]),
            rules: [],
            ticks: [{ ...web, path }],
            isController,
          });
          const [planned] = plan.rules;
          const object = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "shop" } };
          expect(rulesFor(plan.rules, object, "apps")).toEqual([planned]);
          const elsewhere = { ...object, metadata: { name: other === "web" ? "web2" : other, namespace: "shop" } };
          expect(rulesFor(plan.rules, elsewhere, "apps")).toEqual([]);
          if (manager === "some-controller") {
            expect(planned?.managedFieldsManagers).toEqual([manager]);
            return;
          }
          const live: Record<string, unknown> = {};
          let node = live;
          for (const s of segments.slice(0, -1)) node = node[s] = {} as Record<string, unknown>;
          node[segments.at(-1)!] = 1;
          stripIgnored({
            objects: [live as never],
            rules: plan.rules,
            ownership: new Ownership([]),
            jq: { paths: () => [] },
          });
          let left: unknown = live;
          for (const s of segments) left = (left as Record<string, unknown> | undefined)?.[s];
          expect(left).toBeUndefined();
        },
      ),
    );
  });
});
