// A kubeconfig that cannot be used reaches the user as one line that says what
// to fix: a certificate-authority that did not sign the server's certificate, a
// token the server refuses, a server that is not there. Exit code 2 each time.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { closedPortKubeconfig, kubeconfigPath } from "../helpers/cluster.ts";
import { type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const run = promisify(execFile);
const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: '1'\n";

interface Kubeconfig {
  clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
  users: Array<{ name: string; user: Record<string, unknown> }>;
}

let dir: string;
let current: Scenario | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "undrift-kubeconfigs-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => current?.cleanup());

/** The test cluster's kubeconfig, edited, in a file of its own. */
function kubeconfigWith(name: string, edit: (config: Kubeconfig) => void): string {
  const config = parse(readFileSync(kubeconfigPath(), "utf8")) as Kubeconfig;
  edit(config);
  const file = join(dir, name);
  writeFileSync(file, stringify(config), { mode: 0o600 });
  return file;
}

async function scanWith(kubeconfig: string, env?: NodeJS.ProcessEnv) {
  current = scenario({ files: { "manifests/a.yaml": configMap } });
  const args = ["scan", "--repo", current.repoDir, "--target", current.target, "--kubeconfig", kubeconfig];
  const result = await undrift(args, env ? { env: { ...process.env, ...env } } : undefined);
  expect(result.stdout).toBe("");
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  return { code: result.code, line: result.stderr.trim() };
}

describe("undrift scan with a kubeconfig that cannot be used", { timeout: 60_000 }, () => {
  it("says a certificate-authority that did not sign the server's certificate is a TLS problem", async () => {
    const key = join(dir, "other-ca.key");
    const cert = join(dir, "other-ca.crt");
    await run("openssl", [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"],
      ...["-subj", "/CN=another-authority", "-keyout", key, "-out", cert],
    ]);
    const file = kubeconfigWith("other-ca", (config) => {
      for (const { cluster } of config.clusters) {
        cluster["certificate-authority-data"] = readFileSync(cert).toString("base64");
      }
    });
    expect(await scanWith(file)).toEqual({
      code: 2,
      line: `cluster undrift-test: TLS: certificate signed by unknown authority (check certificate-authority in ${file})`,
    });
  });

  it("says which user's credentials the server refused", async () => {
    const file = kubeconfigWith("bad-token", (config) => {
      for (const { user } of config.users) user.token = "not-a-token-the-server-knows";
    });
    expect(await scanWith(file)).toEqual({
      code: 2,
      line: `cluster undrift-test: 401 Unauthorized: the credentials of user "admin" in ${file} were refused (a wrong or expired token or client certificate)`,
    });
  });

  it("says an identity that may not even read discovery is refused, naming the user", async () => {
    const file = kubeconfigWith("no-credentials", (config) => {
      for (const entry of config.users) entry.user = {};
    });
    // With no discovery on disk its first request is /api; with discovery another identity cached, the
    // conditional /apis that checks the cache is refused just the same.
    const cacheDir = mkdtempSync(join(tmpdir(), "undrift-discovery-"));
    try {
      const cold = { UNDRIFT_DISCOVERY_CACHE: cacheDir };
      const refused = (path: string) => ({
        code: 2,
        line: `cluster undrift-test: 403 Forbidden: User "system:anonymous" cannot get path "${path}" (user "admin" in ${file} may not read which kinds the cluster serves)`,
      });
      expect(await scanWith(file, cold)).toEqual(refused("/api"));
      const admin = ["scan", "--repo", current!.repoDir, "--target", current!.target, "--kubeconfig", kubeconfigPath()];
      expect((await undrift(admin, { env: { ...process.env, ...cold } })).code).not.toBe(2);
      await current?.cleanup();
      expect(await scanWith(file, cold)).toEqual(refused("/apis"));
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("says a certificate file the kubeconfig names that is missing, naming the file", async () => {
    const missing = join(dir, "nowhere", "ca.crt");
    const file = kubeconfigWith("missing-ca-file", (config) => {
      for (const { cluster } of config.clusters) {
        delete cluster["certificate-authority-data"];
        cluster["certificate-authority"] = missing;
      }
    });
    const { code, line } = await scanWith(file);
    expect(code).toBe(2);
    expect(line).toMatch(new RegExp(`^cluster undrift-test: ${file}: .*${missing}`));
  });

  it("still calls a server that refuses connections unreachable", async () => {
    const file = join(dir, "closed-port");
    writeFileSync(file, await closedPortKubeconfig());
    const { code, line } = await scanWith(file);
    expect(code).toBe(2);
    expect(line).toMatch(
      /^cluster at https:\/\/127\.0\.0\.1:\d+ is unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
  });

  it("calls a server name that does not resolve unreachable", async () => {
    const file = kubeconfigWith("no-such-host", (config) => {
      for (const { cluster } of config.clusters) cluster.server = "https://undrift-no-such-host.invalid:6443";
    });
    const { code, line } = await scanWith(file);
    expect(code).toBe(2);
    expect(line).toMatch(
      /^cluster at https:\/\/undrift-no-such-host\.invalid:6443 is unreachable: getaddrinfo (ENOTFOUND|EAI_AGAIN)/,
    );
  });

  it("gives up on a server that accepts connections but never completes TLS, within 10 seconds", async () => {
    const silent = createServer(() => {}); // holds every connection open, says nothing
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    try {
      const { port } = silent.address() as AddressInfo;
      const file = kubeconfigWith("silent", (config) => {
        for (const { cluster } of config.clusters) cluster.server = `https://127.0.0.1:${port}`;
      });
      // The scan returns (the server would hold it forever) and says it gave up at its handshake bound.
      const { code, line } = await scanWith(file);
      expect({ code, line }).toEqual({
        code: 2,
        line: `cluster at https://127.0.0.1:${port} is unreachable: no TLS handshake within 10s`,
      });
    } finally {
      silent.close();
    }
  });
});

describe("undrift scan with a kubeconfig user whose credentials come from an exec plugin", { timeout: 60_000 }, () => {
  /** The kubeconfig with every user's token handed out by `script` (the token passed in its env) instead. */
  function execKubeconfig(name: string, script: string): { file: string; plugin: string } {
    const plugin = join(dir, `${name}.sh`);
    writeFileSync(plugin, `#!/bin/sh\n${script}`, { mode: 0o700 });
    const file = kubeconfigWith(name, (config) => {
      for (const entry of config.users) {
        const token = String(entry.user.token);
        entry.user = {
          exec: {
            apiVersion: "client.authentication.k8s.io/v1",
            command: plugin,
            env: [{ name: "TOKEN", value: token }],
          },
        };
      }
    });
    return { file, plugin };
  }

  it("scans with the token the plugin prints", async () => {
    const { file } = execKubeconfig(
      "exec-token",
      `echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"'"$TOKEN"'"}}'\n`,
    );
    current = scenario({ files: { "manifests/a.yaml": configMap } });
    await current.applyGit();
    const result = await undrift(["scan", "--repo", current.repoDir, "--target", current.target, "--kubeconfig", file]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  });

  it("fails in one line naming the user, the command and the bound when the plugin hangs past UNDRIFT_EXEC_TIMEOUT", async () => {
    const { file, plugin } = execKubeconfig("exec-hang", "exec sleep 1000\n");
    expect(await scanWith(file, { UNDRIFT_EXEC_TIMEOUT: "1" })).toEqual({
      code: 2,
      line: `cluster undrift-test: ${file}: user "admin": exec plugin ${plugin} gave no credentials within 1 s and was stopped (UNDRIFT_EXEC_TIMEOUT sets the bound)`,
    });
  });
});
