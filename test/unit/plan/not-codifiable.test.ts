// What codify leaves alone, decided once for the stage and the dashboard:
// objects being deleted first, then Secret values and helm output.
import { describe, expect, it } from "vitest";
import { notCodifiable } from "../../../src/plan/not-codifiable.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap" };
const live = (meta: Record<string, unknown> = {}) => ({ metadata: { name: "app", namespace: "shop", ...meta } });

describe("notCodifiable", () => {
  it("lets codify handle a ConfigMap of a plain or kustomize target, live or missing", () => {
    expect(notCodifiable({ object: cm, live: live(), renderer: "plain" })).toBeUndefined();
    expect(notCodifiable({ object: cm, renderer: "kustomize" })).toBeUndefined();
  });

  it("refuses an object being deleted, naming what holds it", () => {
    const since = "2026-12-06T05:00:00Z";
    expect(notCodifiable({ object: cm, live: live({ deletionTimestamp: since }), renderer: "plain" })).toBe(
      `being deleted (deletionTimestamp ${since}); codify waits until it is gone`,
    );
    const held = live({ deletionTimestamp: since, finalizers: ["example.com/hold", "kubernetes"] });
    expect(notCodifiable({ object: cm, live: held, renderer: "plain" })).toBe(
      `being deleted (deletionTimestamp ${since}, held by finalizers example.com/hold, kubernetes); codify waits until it is gone`,
    );
  });

  it("says an object is being deleted before it says it is a Secret or helm output", () => {
    const held = live({ deletionTimestamp: "2026-12-06T05:00:00Z" });
    expect(notCodifiable({ object: { apiVersion: "v1", kind: "Secret" }, live: held, renderer: "helm" })).toMatch(
      /^being deleted/,
    );
  });

  it("keeps Secret values and helm output out of Git", () => {
    expect(notCodifiable({ object: { apiVersion: "v1", kind: "Secret" }, renderer: "plain" })).toBe(
      "Secret values stay out of Git",
    );
    expect(notCodifiable({ object: cm, live: live(), renderer: "helm" })).toBe(
      "helm output is diffed and reverted, not codified",
    );
  });
});
