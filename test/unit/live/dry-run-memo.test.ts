import { describe, expect, it } from "vitest";
import { DryRunMemo } from "../../../src/live/dry-run-memo.ts";
import type { KubeObject } from "../../../src/model/types.ts";

const live = (resourceVersion: string, uid = "u-1"): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop", uid, resourceVersion },
});
const desired = (replicas: number): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop" },
  spec: { replicas },
});

describe("DryRunMemo", () => {
  it("gives an answer back only for the same request against the same state of the same object", () => {
    const memo = new DryRunMemo();
    const key = memo.keyOf("apply", "undrift", live("10"), desired(2))!;
    memo.set(key, desired(2));
    expect(memo.get(memo.keyOf("apply", "undrift", live("10"), desired(2))!)).toEqual(desired(2));
    // Written since (a new resourceVersion), a new desired state, another manager, verb or object: not known.
    expect(memo.get(memo.keyOf("apply", "undrift", live("11"), desired(2))!)).toBeUndefined();
    expect(memo.get(memo.keyOf("apply", "undrift", live("10"), desired(3))!)).toBeUndefined();
    expect(memo.get(memo.keyOf("apply", "flux", live("10"), desired(2))!)).toBeUndefined();
    expect(memo.get(memo.keyOf("create", "undrift", live("10"), desired(2))!)).toBeUndefined();
    expect(memo.get(memo.keyOf("apply", "undrift", live("10", "u-2"), desired(2))!)).toBeUndefined();
  });

  it("hands out copies: a caller's edit of its answer is not the next caller's", () => {
    const memo = new DryRunMemo();
    const key = memo.keyOf("apply", "undrift", live("10"), desired(2))!;
    const answer = desired(2);
    memo.set(key, answer);
    answer.spec = { replicas: 9 };
    const first = memo.get(key)!;
    first.spec = { replicas: 8 };
    expect(memo.get(key)).toEqual(desired(2));
  });

  it("keeps no Secret and nothing judged against an object without a uid or resourceVersion", () => {
    const memo = new DryRunMemo();
    const secret: KubeObject = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "db", uid: "u-3", resourceVersion: "4" },
      data: { password: "aHVudGVyMg==" },
    };
    expect(memo.keyOf("apply", "undrift", secret, secret)).toBeUndefined();
    expect(memo.keyOf("apply", "undrift", { ...live("10"), metadata: { name: "web" } }, desired(2))).toBeUndefined();
  });

  it("forgets an answer after its ttl, and the least recently used past its size", () => {
    let now = 0;
    const memo = new DryRunMemo({ ttlMs: 1000, maxEntries: 2, now: () => now });
    const key = (rv: string) => memo.keyOf("apply", "undrift", live(rv), desired(2))!;
    memo.set(key("1"), desired(1));
    now = 999;
    expect(memo.get(key("1"))).toEqual(desired(1));
    now = 1000;
    expect(memo.get(key("1"))).toBeUndefined();
    expect(memo.size).toBe(0);

    memo.set(key("1"), desired(1));
    memo.set(key("2"), desired(2));
    memo.get(key("1")); // used: "2" is now the least recently used
    memo.set(key("3"), desired(3));
    expect(memo.size).toBe(2);
    expect(memo.get(key("2"))).toBeUndefined();
    expect(memo.get(key("1"))).toEqual(desired(1));
    expect(memo.get(key("3"))).toEqual(desired(3));
  });
});
