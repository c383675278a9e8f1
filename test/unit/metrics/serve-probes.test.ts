// A worker's own probe server: alive, ready only when every check passes (and
// says which failed, and why), and the Prometheus text of the process.
import { afterEach, describe, expect, it } from "vitest";
import type { ReadinessCheck } from "../../../src/metrics/probe-routes.ts";
import { type ProbeServer, serveProbes } from "../../../src/metrics/serve-probes.ts";

let server: ProbeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const passing = (name: string): ReadinessCheck => ({ name, check: async () => {} });
const failing = (name: string, why: string): ReadinessCheck => ({
  name,
  check: async () => {
    throw new Error(`${why}\nsecond line`);
  },
});
const get = async (path: string) => {
  const response = await fetch(`http://127.0.0.1:${server!.port}${path}`);
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
};

describe("serveProbes", () => {
  it("answers /healthz and /readyz with 200 when every check passes", async () => {
    server = await serveProbes({ port: 0, host: "127.0.0.1", checks: [passing("redis"), passing("github-app")] });
    expect(await get("/healthz")).toMatchObject({ status: 200, body: "ok\n" });
    expect(await get("/readyz")).toMatchObject({ status: 200, body: "ok\n" });
  });

  it("answers /readyz with 503 and one line per check, each failure with its first line of reason", async () => {
    server = await serveProbes({
      port: 0,
      host: "127.0.0.1",
      checks: [failing("redis", "redis://127.0.0.1:1: not connected (reconnecting)"), passing("cluster-registry")],
    });
    expect(await get("/readyz")).toEqual({
      status: 503,
      type: "text/plain; charset=utf-8",
      body: "[-]redis failed: redis://127.0.0.1:1: not connected (reconnecting)\n[+]cluster-registry ok\nreadyz check failed\n",
    });
    // Alive all the same: a restart would not bring Redis back.
    expect((await get("/healthz")).status).toBe(200);
  });

  it("fails a check that does not answer in time instead of holding the probe", async () => {
    const hangs: ReadinessCheck = { name: "github-app", check: () => new Promise(() => {}) };
    server = await serveProbes({ port: 0, host: "127.0.0.1", checks: [hangs] });
    const answer = await get("/readyz");
    expect(answer.status).toBe(503);
    expect(answer.body).toContain("[-]github-app failed: no answer within 900 ms");
  });

  it("serves the undrift_* series as Prometheus text, and 404 elsewhere", async () => {
    server = await serveProbes({ port: 0, host: "127.0.0.1", checks: [] });
    const metrics = await get("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain("text/plain; version=0.0.4");
    expect(metrics.body).toContain("# TYPE undrift_drift_objects gauge");
    expect(metrics.body).toContain("# TYPE undrift_scans_total counter");
    expect((await get("/ping")).status).toBe(404);
  });
});
