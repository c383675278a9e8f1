import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { SessionPool } from "../../../src/live/session-pool.ts";

function makeKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: "https://127.0.0.1:1" }],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
}

const kubeConfig = makeKubeConfig();

describe("SessionPool", () => {
  it("gives jobs of one cluster that run together the same session, and a new one after the last ends", () => {
    const pool = new SessionPool();
    const a = pool.acquire("prod", kubeConfig);
    const b = pool.acquire("prod", kubeConfig);
    const other = pool.acquire("staging", kubeConfig);
    expect(b.session).toBe(a.session);
    expect(other.session).not.toBe(a.session);
    a.release();
    a.release(); // twice is harmless: b still holds the session
    expect(pool.acquire("prod", kubeConfig).session).toBe(b.session);
  });

  it("starts a fresh session once the last user releases", () => {
    const pool = new SessionPool();
    const a = pool.acquire("prod", kubeConfig);
    a.release();
    expect(pool.acquire("prod", kubeConfig).session).not.toBe(a.session);
  });

  it("gives no new job a session older than maxAgeMs, while its old users keep it", () => {
    let now = 0;
    const pool = new SessionPool({ maxAgeMs: 1000, now: () => now });
    const a = pool.acquire("prod", kubeConfig);
    now = 999;
    expect(pool.acquire("prod", kubeConfig).session).toBe(a.session);
    now = 1000;
    const late = pool.acquire("prod", kubeConfig);
    expect(late.session).not.toBe(a.session);
    // The old session's release must not drop the new one.
    a.release();
    expect(pool.acquire("prod", kubeConfig).session).toBe(late.session);
  });
});
