// An aggregated API group whose service is gone (a metrics-server uninstalled, an APIService left behind):
// the aggregator marks it Stale in discovery and serves none of its kinds. The scan goes on with the rest
// of the cluster and says, in its problems, which group it could not see and that its orphans are unchecked.
//
// While the APIService exists discovery is partial for the whole shared cluster: its group is unique, and it
// is removed as soon as the scan has run (and in afterAll, should the test fail first).
import { afterAll, describe, expect, it } from "vitest";
import { client, kubectl, uniqueName } from "../helpers/cluster.ts";
import { eventually } from "../helpers/controllers.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const group = `${uniqueName("broken")}.example.com`;
const apiService = `v1.${group}`;
let current: Scenario | undefined;

const removeApiService = () => kubectl(["delete", "apiservice", apiService, "--ignore-not-found", "--wait=false"]);

afterAll(async () => {
  await removeApiService();
  await current?.cleanup();
});

describe("undrift scan with an API group the server cannot discover", () => {
  it("names the group in the problems and says its orphans are not checked", async () => {
    current = scenario({
      files: { "manifests/cm.yaml": 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n' },
    });
    await current.applyGit();
    await kubectl(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apiregistration.k8s.io/v1",
        kind: "APIService",
        metadata: { name: apiService },
        spec: {
          group,
          version: "v1",
          service: { namespace: current.namespace, name: uniqueName("gone") },
          groupPriorityMinimum: 1000,
          versionPriority: 15,
          insecureSkipTLSVerify: true,
        },
      }),
    );
    try {
      // The aggregator's own answer, read apart from undrift's discovery: the group listed, its version Stale.
      await eventually(`${group}/v1 marked Stale by the aggregator`, async () => {
        const list = await client().send<{
          items: Array<{ metadata: { name: string }; versions: Array<{ freshness?: string }> }>;
        }>({
          method: "GET",
          path: "/apis",
          accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
        });
        const item = list.items.find((i) => i.metadata.name === group);
        return item?.versions[0]?.freshness === "Stale" ? true : undefined;
      });
      const { code, report } = await current.scanJson();
      expect(code).toBe(0);
      expect(report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
      expect(report.problems).toContainEqual({
        group,
        kind: "*",
        message: `orphans not checked in API group ${group}/v1: the API server could not discover it (check APIService ${apiService})`,
      });
    } finally {
      await removeApiService();
    }
  });
});
