// Which objects a tracking selector picks, as the API server decides it: the
// watch queues a target's scan only for a change to an object it picks
// (watch-triggers.ts), and prune checks it again before each delete, so an
// object without the label must never match.
import { describe, expect, it } from "vitest";
import { matchesSelector } from "../../../src/config/matches-selector.ts";
import { parseLabelSelector } from "../../../src/config/parse-label-selector.ts";

const picks = (selector: string, labels?: Record<string, string>) =>
  matchesSelector(labels, parseLabelSelector(selector));

describe("a tracking selector", () => {
  it("picks an object only when every term holds", () => {
    expect(picks("undrift.dev/target=shop,tier!=db", { "undrift.dev/target": "shop", tier: "web" })).toBe(true);
    expect(picks("undrift.dev/target=shop,tier!=db", { "undrift.dev/target": "shop", tier: "db" })).toBe(false);
    expect(picks("undrift.dev/target=shop", { "undrift.dev/target": "edge" })).toBe(false);
  });

  it("never picks an object without labels for an equality or existence term, and honours absence terms", () => {
    expect(picks("undrift.dev/target=shop", undefined)).toBe(false);
    expect(picks("undrift.dev/target", {})).toBe(false);
    expect(picks("undrift.dev/target,!legacy", { "undrift.dev/target": "" })).toBe(true);
    expect(picks("undrift.dev/target,!legacy", { "undrift.dev/target": "x", legacy: "" })).toBe(false);
  });
});
