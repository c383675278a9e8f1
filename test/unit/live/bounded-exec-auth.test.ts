// A kubeconfig's exec credential plugin that never answers: the request fails after
// UNDRIFT_EXEC_TIMEOUT with one line naming the user, the command and the bound, and
// the plugin (with the child it started) is gone; one that answers is run once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { KubeconfigError } from "../../../src/live/errors.ts";
import { KubeClient } from "../../../src/live/kube-client.ts";
import { loadKubeconfig } from "../../../src/live/load-kubeconfig.ts";
import { type ExecPluginFixture, execPluginKubeconfig, running } from "../../helpers/exec-plugin.ts";

let fixture: ExecPluginFixture | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  // Leave nothing running, also when the bound did not hold.
  for (const pid of (await fixture?.pids()) ?? []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  await fixture?.remove();
  fixture = undefined;
});

describe("an exec credential plugin", () => {
  it("that hangs fails the request after UNDRIFT_EXEC_TIMEOUT, naming user, command and bound, and is killed with its child", async () => {
    fixture = await execPluginKubeconfig("hang");
    vi.stubEnv("UNDRIFT_EXEC_TIMEOUT", "0.5");
    const client = new KubeClient(loadKubeconfig({ kubeconfig: fixture.kubeconfig }));
    const error = await client.send({ method: "GET", path: "/api" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toBe(
      `cluster c: ${fixture.kubeconfig}: user "sso": exec plugin ${fixture.plugin} gave no credentials within 0.5 s and was stopped (UNDRIFT_EXEC_TIMEOUT sets the bound)`,
    );
    // Its arguments may hold a secret: never said.
    expect((error as Error).message).not.toContain("--secret-arg");
    const pids = await fixture.pids();
    expect(pids).toHaveLength(2);
    await vi.waitFor(
      async () => {
        for (const pid of pids!) expect(await running(pid), `pid ${pid} still runs`).toBe(false);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it("that answers is run once for requests that need it together, and its token is sent", async () => {
    fixture = await execPluginKubeconfig("token");
    const kc = loadKubeconfig({ kubeconfig: fixture.kubeconfig });
    new KubeClient(kc); // bounds the plugin
    const options = await Promise.all(
      [0, 1, 2].map(async () => {
        const opts: { headers?: Record<string, string> } = {};
        await kc.applyToHTTPSOptions(opts);
        return opts;
      }),
    );
    for (const opts of options) expect(opts.headers?.Authorization).toBe("Bearer exec-token");
    expect(await fixture.runs()).toBe(1);
  });

  it("is started only once undrift listens for Ctrl-C, so a stop signal that comes at once still takes it down", async () => {
    // Between the plugin's start and undrift's next line, a loaded machine may run the plugin and the person's
    // Ctrl-C first: with no listener yet, SIGINT ended undrift by the default action and left the plugin running.
    fixture = await execPluginKubeconfig("token");
    const childProcess = process.getBuiltinModule("node:child_process");
    const spawn = childProcess.spawn;
    const before = process.listenerCount("SIGINT");
    const listening: number[] = [];
    const spy = vi.spyOn(childProcess, "spawn").mockImplementation(((...args: Parameters<typeof spawn>) => {
      listening.push(process.listenerCount("SIGINT"));
      return spawn(...args);
    }) as typeof spawn);
    try {
      const kc = loadKubeconfig({ kubeconfig: fixture.kubeconfig });
      new KubeClient(kc); // bounds the plugin
      const opts: { headers?: Record<string, string> } = {};
      await kc.applyToHTTPSOptions(opts);
      expect(opts.headers?.Authorization).toBe("Bearer exec-token");
    } finally {
      spy.mockRestore();
    }
    expect(listening).toEqual([before + 1]);
    // And none is left once the plugin is done: a listener of undrift's own would keep Ctrl-C from ending it.
    expect(process.listenerCount("SIGINT")).toBe(before);
  });

  it("is refused a bound that is not a number of seconds", async () => {
    fixture = await execPluginKubeconfig("token");
    vi.stubEnv("UNDRIFT_EXEC_TIMEOUT", "1m");
    const client = new KubeClient(loadKubeconfig({ kubeconfig: fixture.kubeconfig }));
    await expect(client.send({ method: "GET", path: "/api" })).rejects.toThrow(
      `cluster c: ${fixture.kubeconfig}: UNDRIFT_EXEC_TIMEOUT: expected a number of seconds above 0, got "1m"`,
    );
  });
});
