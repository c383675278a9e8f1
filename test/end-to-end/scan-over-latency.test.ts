// A cluster in another region: undrift scans through the test cluster's latency
// proxy (20 ms added to every round trip) and must report exactly what it reports
// on loopback, over connections it keeps and reuses, as kubectl and client-go do.
// (Before, the proxy cut the last bytes of a response the API server closed its
// connection after, and undrift asked for a new TLS connection for every request.)
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { writeKubeconfigFor } from "../../scripts/cluster/kubeconfig.ts";
import { startLatencyProxy } from "../../scripts/cluster/latency-proxy.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const configMaps = Array.from(
  { length: 20 },
  (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\ndata:\n  LOG_LEVEL: info\n`,
).join("---\n");

describe("undrift scan over a 20 ms round trip", () => {
  it("reports what it reports on loopback, over a few connections it reuses", async () => {
    current = scenario({ files: { "manifests/settings.yaml": configMaps } });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "patch", "configmap/settings-3", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const server = (
      parse(readFileSync(kubeconfigPath(), "utf8")) as { clusters: Array<{ cluster: { server: string } }> }
    ).clusters[0]?.cluster.server as string;
    const proxy = await startLatencyProxy({ target: server, rttMs: 20 });
    const slow = join(tmpdir(), `${uniqueName("kubeconfig-rtt")}.yaml`);
    try {
      writeKubeconfigFor(kubeconfigPath(), slow, proxy.url);
      const direct = await s.scanJson();
      const far = await s.scanJson({ kubeconfig: slow });
      expect(far.code).toBe(1);
      expect(far.report.summary).toEqual({ inSync: 19, drifted: 1, missing: 0, orphaned: 0 });
      expect(far.report.resources).toEqual(direct.report.resources);
      const requests = far.report.stats?.requests ?? 0;
      expect(requests).toBeGreaterThan(40);
      // Kept-alive connections: a handful for the scan's parallel requests, not one per request.
      expect(proxy.connections).toBeLessThan(requests / 4);
    } finally {
      rmSync(slow, { force: true });
      await proxy.close();
    }
  });
});
