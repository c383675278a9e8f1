import { describe, expect, it } from "vitest";
import { hasPositiveTerm, LabelSelectorError, parseLabelSelector } from "../../../src/config/parse-label-selector.ts";

describe("parseLabelSelector", () => {
  it("reads every equality-based form, with DNS-prefixed keys", () => {
    expect(
      parseLabelSelector("kustomize.toolkit.fluxcd.io/name=apps, tier==web,env!=dev,managed,!legacy,empty="),
    ).toEqual([
      { key: "kustomize.toolkit.fluxcd.io/name", operator: "=", value: "apps" },
      { key: "tier", operator: "=", value: "web" },
      { key: "env", operator: "!=", value: "dev" },
      { key: "managed", operator: "exists" },
      { key: "legacy", operator: "!exists" },
      { key: "empty", operator: "=", value: "" },
    ]);
  });

  it.each([
    ["", "an empty selector would select every object in the cluster"],
    ["env in (dev,prod)", 'set-based selectors (in, notin) are not supported: "env in (dev,prod)"'],
    ["a=b,", '"" is not one of k=v, k==v, k!=v, k or !k'],
    ["!a=b", '"!a=b" is not one of k=v, k==v, k!=v, k or !k'],
    ["Bad_Prefix/name=x", '"Bad_Prefix/name" is not a valid label key'],
    ["app=has space", '"app=has space" is not one of k=v, k==v, k!=v, k or !k'],
    ["app=-web", '"-web" in "app=-web" is not a valid label value'],
  ])("refuses %j", (selector, message) => {
    expect(() => parseLabelSelector(selector)).toThrow(new LabelSelectorError(message));
  });
});

describe("hasPositiveTerm", () => {
  it.each([
    ["team=x", true],
    ["managed", true],
    ["team=x,!legacy,env!=dev", true],
    ["!legacy", false],
    ["env!=dev", false],
    ["!legacy,env!=dev", false],
  ])("%j: %s", (selector, positive) => {
    expect(hasPositiveTerm(parseLabelSelector(selector))).toBe(positive);
  });
});
