// Ctrl-C while a kubeconfig's exec credential plugin hangs: undrift ends, and so does
// the plugin with the child it started (it runs in a process group of its own, which
// the terminal's SIGINT no longer reaches, so undrift must stop it).
import { afterEach, describe, expect, it, vi } from "vitest";
import { startUndrift } from "../../helpers/cli-process.ts";
import { type ExecPluginFixture, execPluginKubeconfig, running } from "../../helpers/exec-plugin.ts";
import { tempRepo } from "../desired/temp-repo.ts";

let fixture: ExecPluginFixture | undefined;
afterEach(async () => {
  for (const pid of (await fixture?.pids()) ?? []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  await fixture?.remove();
  fixture = undefined;
});

describe("undrift scan waiting on an exec credential plugin that hangs", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("ends on %s and takes the plugin and its child with it", async (signal) => {
    fixture = await execPluginKubeconfig("hang");
    const repo = await tempRepo({
      ".github/undrift.yml": "targets:\n- {name: app, cluster: test, path: manifests}\n",
      "manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: default}\n",
    });
    const cli = startUndrift(["scan", "--repo", repo, "--kubeconfig", fixture.kubeconfig], {
      env: { UNDRIFT_DISCOVERY_CACHE: "off" },
    });
    const pids = await vi.waitFor(
      async () => {
        const written = await fixture!.pids();
        if (!written) throw new Error(`the plugin has not started; undrift said: ${cli.stderr()}`);
        return written;
      },
      { timeout: 20_000, interval: 100 },
    );
    cli.child.kill(signal);
    await cli.exited;
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
    await vi.waitFor(
      async () => {
        for (const pid of pids) expect(await running(pid), `pid ${pid} still runs`).toBe(false);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
