// The ignore PR's body: what the rule hides, how, who asked, the rules, what
// was not ignored, and the ticks it carries for the next request to add to.
import { describe, expect, it } from "vitest";
import type { IgnorePlan } from "../../../../src/plan/ignore/plan-ignore-rule.ts";
import { ignorePrBody, type RequestedTick, readTicks } from "../../../../src/report/app/ignore-pr-body.ts";

const web = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };
const ticks: RequestedTick[] = [
  { ...web, path: "/spec/replicas", requestedBy: "alice" },
  { ...web, path: "/metadata/annotations/a-->b", requestedBy: "undrift (heal fight)" },
];
const plan: IgnorePlan = {
  rules: [
    {
      group: "apps",
      kind: "Deployment",
      name: "web",
      jsonPointers: ["/spec/replicas"],
      jqPathExpressions: [],
      managedFieldsManagers: ["hpa"],
    },
  ],
  changed: [0],
  planned: [
    { tick: ticks[0]!, path: "/spec/replicas", by: "jsonPointer", value: "/spec/replicas", rule: 0 },
    { tick: ticks[1]!, path: ticks[1]!.path!, by: "manager", value: "hpa", rule: 0 },
  ],
  covered: [],
  refused: [{ tick: { ...web, name: "gone" }, reason: "the object is missing from the cluster" }],
};

describe("ignorePrBody", () => {
  const body = ignorePrBody({
    target: "infra",
    cluster: "prod",
    file: ".github/undrift.yml",
    revision: "0123456789abcdef",
    plan,
    proof: { hidden: [{ object: web, paths: ["/spec/replicas", "/spec/x"] }], still: [], appeared: [] },
    ticks,
  });

  it("says what is hidden from now on, how, and who asked", () => {
    expect(body).toContain("- `apps/v1 Deployment shop/web`: `/spec/replicas`, `/spec/x`");
    expect(body).toContain("- `/spec/replicas` of `apps/v1 Deployment shop/web`: by `/spec/replicas`, asked by @alice");
    expect(body).toContain("by every field `hpa` writes, asked by undrift (heal fight)");
    expect(body).toContain("at `0123456789ab` with the edited config");
    expect(body).toContain("- `apps/v1 Deployment shop/gone`: the object is missing from the cluster");
    expect(body).toContain("managedFieldsManagers:\n      - hpa");
  });

  it("carries its ticks in a comment nothing inside can close, and reads them back", () => {
    const comment = body.slice(body.indexOf("<!-- undrift:ignore-ticks"));
    expect(comment.indexOf("-->")).toBe(comment.length - 3);
    expect(readTicks(body)).toEqual(ticks);
    expect(readTicks("no ticks here")).toEqual([]);
    expect(readTicks("<!-- undrift:ignore-ticks [not json -->")).toEqual([]);
  });
});
