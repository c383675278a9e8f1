// A scan whose render and cluster both fail ends on one error, and leaves no promise rejected
// unheard: in the app's worker (and in the CLI, where Node's default is to crash) an unhandled
// rejection is a second failure the user never caused. Needs no cluster: the port is closed.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { runScan } from "../../../../src/cli/run-scan.ts";
import { loadConfig } from "../../../../src/config/load-config.ts";
import { closedPortKubeconfig } from "../../../helpers/cluster.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("a scan that fails", () => {
  it("on a repository gone from disk and an unreachable cluster rejects once, with nothing unhandled", async () => {
    const dir = await mkdtemp(join(tmpdir(), "undrift-scan-fail-"));
    scratch.push(dir);
    const kubeconfig = join(dir, "kubeconfig");
    await writeFile(kubeconfig, await closedPortKubeconfig());
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfig);
    const config = loadConfig("targets:\n- {name: app, cluster: test, path: manifests, namespace: default}\n");
    // The app's snapshot removed while its job still ran: the render fails on the missing folder.
    const gone = join(dir, "snapshot-removed");

    const unhandled: unknown[] = [];
    const hear = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", hear);
    try {
      await expect(
        runScan({ repoDir: gone, targetName: "app", kubeConfig, config, revision: "0".repeat(40) }),
      ).rejects.toThrow();
      // Node reports a rejection nobody handled once the microtasks of its turn are done.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      process.off("unhandledRejection", hear);
    }
    expect(unhandled.map(String)).toEqual([]);
  });
});
