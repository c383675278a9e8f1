// The API server going away in the middle of `undrift revert`: the revert runs
// through a loopback proxy this test owns (test/helpers/cut-proxy.ts, whose
// connections start late enough to cut it between applies), which is cut once
// the cluster shows the first objects reverted, and restored on the same port
// afterwards. The shared kube-apiserver itself is never touched.
// (scripts/cluster/latency-proxy.ts would be the natural choice, but undrift's
// requests through it end in "socket hang up" at any round trip above zero.)
// What a user sees: the output lists each object as applied or failed, the
// failures name the connection problem, the exit code says the revert is
// incomplete, and a second revert completes the rest.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { client, kubectl } from "../helpers/cluster.ts";
import { type CutProxy, proxyTestCluster } from "../helpers/cut-proxy.ts";
import { waitFor } from "../helpers/redis.ts";
import { type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const COUNT = 20;
const names = Array.from({ length: COUNT }, (_, i) => `settings-${String(i).padStart(2, "0")}`);
const files = Object.fromEntries(
  names.map((name) => [
    `manifests/${name}.yaml`,
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  LOG_LEVEL: info\n`,
  ]),
);

let s: Scenario | undefined;
let proxy: CutProxy | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await proxy?.close();
  await s?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  s = proxy = scratch = undefined;
});

/** The names of the ConfigMaps whose LOG_LEVEL is Git's again, read straight from the API server. */
async function reverted(namespace: string): Promise<string[]> {
  const list = await client().send<{ items: Array<{ metadata: { name: string }; data?: Record<string, string> }> }>({
    method: "GET",
    path: `/api/v1/namespaces/${namespace}/configmaps`,
  });
  return list.items
    .filter((cm) => names.includes(cm.metadata.name) && cm.data?.LOG_LEVEL === "info")
    .map((cm) => cm.metadata.name)
    .sort();
}

async function revertThrough(kubeconfig: string, target: Scenario) {
  const run = await undrift([
    "revert",
    ...["--repo", target.repoDir, "--target", target.target, "--kubeconfig", kubeconfig, "--output", "json"],
  ]);
  const result = run.stdout ? (JSON.parse(run.stdout) as RevertResult) : undefined;
  return { ...run, result };
}

describe("the API server unreachable in the middle of a revert", () => {
  it("reports each object applied or failed, exits 1, and a second revert completes the rest", async () => {
    s = scenario({ files });
    const target = s;
    await target.applyGit();
    const patch = { data: { LOG_LEVEL: "debug" } };
    await Promise.all(
      names.map((name) => kubectl(["-n", target.namespace, "patch", "configmap", name, "-p", JSON.stringify(patch)])),
    );
    expect(await reverted(target.namespace)).toEqual([]);

    scratch = mkdtempSync(join(tmpdir(), "undrift-faults-"));
    const kubeconfig = join(scratch, "through-proxy.kubeconfig");
    proxy = await proxyTestCluster(kubeconfig, 150);

    // 1. The revert starts; once the cluster shows the first objects reverted, the proxy goes away.
    let finished: string | undefined;
    const first = revertThrough(kubeconfig, target).finally(() => {
      finished = "the revert ended before any apply";
    });
    const before = await waitFor(
      "the first applies",
      async () => {
        if (finished) throw new Error(`${finished}: ${JSON.stringify(await first).slice(0, 2000)}`);
        const done = await reverted(target.namespace);
        return done.length > 0 && done;
      },
      45_000,
    );
    await proxy.cut();
    const { code, result, stderr } = await first;
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
    const byAction = (action: string) => (result?.resources ?? []).filter((r) => r.action === action);
    expect(byAction("configured").length + byAction("failed").length).toBe(COUNT);
    expect(byAction("failed").length).toBeGreaterThan(0);
    for (const failed of byAction("failed")) {
      // Refused once the port is closed; cut mid-request or mid-handshake for those in flight.
      expect(failed.reason).toMatch(
        /^(apply|taking over hand-made fields) failed: cluster at https:\/\/127\.0\.0\.1:\d+ is unreachable: (connect ECONNREFUSED|read ECONNRESET|socket hang up|Client network socket disconnected)[^\n]*; it may not be applied: run revert again$/,
      );
    }
    // What the output calls applied is applied; what is still drifted is among the failed.
    const now = await reverted(target.namespace);
    for (const done of byAction("configured")) {
      expect(now).toContain(done.name);
      // Its health could not be read back once the cut came: said, not taken for "not found".
      expect(done.health?.message ?? "").toMatch(/^could not be read back: cluster at .* is unreachable/);
    }
    const failedNames = byAction("failed").map((r) => r.name);
    for (const name of names.filter((n) => !now.includes(n))) expect(failedNames).toContain(name);

    // 2. The API server is back (the proxy on its port again): a second revert applies what is left.
    await proxy.restore();
    const second = await revertThrough(kubeconfig, target);
    expect(second.code).toBe(0);
    expect(second.result?.summary.configured).toBe(COUNT - now.length);
    expect(second.result?.summary.unchanged).toBe(now.length);
    expect(await reverted(target.namespace)).toEqual(names);
    console.info(
      `faults-apiserver: cut with ${before.length} reverted; first run ${byAction("configured").length} configured, ${byAction("failed").length} failed (${[...new Set(byAction("failed").map((r) => /unreachable: ([^;]{0,40})/.exec(r.reason ?? "")?.[1]))].join(" | ")}); second run ${second.result?.summary.configured} configured`,
    );
  });
});
