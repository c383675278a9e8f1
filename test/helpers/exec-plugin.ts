// Kubeconfigs whose user runs an exec credential plugin: a small shell script, so a
// test can see whether it (and the child it started) still runs.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";

export interface ExecPluginFixture {
  dir: string;
  /** The kubeconfig file whose current user runs `plugin`. */
  kubeconfig: string;
  plugin: string;
  /** The pids the plugin wrote when it started: its own and its child's (undefined until it has started). */
  pids(): Promise<number[] | undefined>;
  /** How many times the plugin ran. */
  runs(): Promise<number>;
  remove(): Promise<void>;
}

/**
 * `hang`: the plugin notes its pid, starts a `sleep` child and waits on it for ever (a login waiting on a prompt).
 * `token`: it prints an ExecCredential with token `exec-token`.
 */
export async function execPluginKubeconfig(
  behaviour: "hang" | "token",
  server = "https://127.0.0.1:1",
): Promise<ExecPluginFixture> {
  const dir = await mkdtemp(join(tmpdir(), "undrift-exec-plugin-"));
  const plugin = join(dir, "plugin.sh");
  const pidFile = join(dir, "pids");
  const runsFile = join(dir, "runs");
  const body =
    behaviour === "hang"
      ? `sleep 1000 &\necho "$$ $!" > '${pidFile}'\nwait\n`
      : `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token"}}'\n`;
  await writeFile(plugin, `#!/bin/sh\necho run >> '${runsFile}'\n${body}`);
  await chmod(plugin, 0o755);
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(
    kubeconfig,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server, "insecure-skip-tls-verify": true } }],
      users: [
        {
          name: "sso",
          user: { exec: { apiVersion: "client.authentication.k8s.io/v1", command: plugin, args: ["--secret-arg"] } },
        },
      ],
      contexts: [{ name: "x", context: { cluster: "c", user: "sso" } }],
      "current-context": "x",
    }),
  );
  return {
    dir,
    kubeconfig,
    plugin,
    pids: async () => {
      const text = await readFile(pidFile, "utf8").catch(() => "");
      return text.trim() ? text.trim().split(" ").map(Number) : undefined;
    },
    runs: async () => (await readFile(runsFile, "utf8").catch(() => "")).split("\n").filter(Boolean).length,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Whether `pid` is a running process (a zombie, ended but not yet reaped by its parent, is not). */
export async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (stat === undefined) return false;
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}
