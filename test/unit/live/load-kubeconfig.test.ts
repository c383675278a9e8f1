import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KubeconfigError } from "../../../src/live/errors.ts";
import { kubeconfigSource, loadKubeconfig } from "../../../src/live/load-kubeconfig.ts";

const canary = "canary-token-9d2f77";

describe("loadKubeconfig: a broken credential file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "undrift-kubeconfig-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const failure = (file: string) => {
    try {
      loadKubeconfig({ kubeconfig: file });
    } catch (error) {
      if (error instanceof KubeconfigError) return error.message;
      throw error;
    }
    throw new Error("expected a KubeconfigError");
  };

  it("names the file and line of a YAML mistake, never the token beside it", async () => {
    const file = join(dir, "config");
    const text = [
      "apiVersion: v1",
      "kind: Config",
      "users:",
      "- name: u",
      "  user:",
      `    token: "${canary}"`,
      "   extra: bad",
      "",
    ].join("\n");
    await writeFile(file, text);
    const message = failure(file);
    expect(message).toBe(`${file}:7: not valid YAML: bad indentation of a mapping entry, column 4`);
    expect(message).not.toContain(canary);
    expect(message).not.toContain("\n");
  });

  it("names a missing field without quoting the file", async () => {
    const file = join(dir, "config");
    await writeFile(
      file,
      `clusters: [{name: c}]\nusers: [{name: u, user: {token: ${canary}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    const message = failure(file);
    expect(message).toBe(`${file}: clusters[0].cluster is missing`);
  });
});

describe("loadKubeconfig: no --kubeconfig, no KUBECONFIG, no ~/.kube/config", () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "undrift-home-"));
    vi.stubEnv("HOME", home);
    vi.stubEnv("KUBECONFIG", undefined);
    vi.stubEnv("KUBERNETES_SERVICE_HOST", undefined);
    vi.stubEnv("KUBERNETES_SERVICE_PORT", undefined);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(home, { recursive: true, force: true });
  });

  it("says what is missing, as kubectl does, instead of falling back to http://localhost:8080", () => {
    expect(() => loadKubeconfig({})).toThrow(
      new KubeconfigError("no kubeconfig: set KUBECONFIG, pass --kubeconfig FILE, or create ~/.kube/config"),
    );
  });

  it("uses the pod's service account when KUBERNETES_SERVICE_HOST says it runs in one", () => {
    vi.stubEnv("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    vi.stubEnv("KUBERNETES_SERVICE_PORT", "443");
    const kc = loadKubeconfig({});
    expect(kc.getCurrentCluster()?.server).toBe("https://10.96.0.1:443");
    expect(kubeconfigSource(kc)).toBe("in-cluster config");
  });

  it("reads ~/.kube/config when it exists", async () => {
    await mkdir(join(home, ".kube"));
    await writeFile(
      join(home, ".kube", "config"),
      "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n",
    );
    const kc = loadKubeconfig({});
    expect(kc.getCurrentCluster()?.server).toBe("https://127.0.0.1:6443");
    expect(kubeconfigSource(kc)).toBe(join(home, ".kube", "config"));
  });
});

describe("loadKubeconfig: KUBECONFIG lists several files", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "undrift-kubeconfig-list-"));
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(["first", "second"])("names the file of the list that is not valid YAML when it comes %s", async (place) => {
    const bad = join(dir, "bad.yaml");
    const good = join(dir, "good");
    await writeFile(bad, `users:\n- name: u\n  user:\n    token: "${canary}"\n   extra: bad\n`);
    await writeFile(
      good,
      "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:6443'}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n",
    );
    vi.stubEnv("KUBECONFIG", (place === "first" ? [bad, good] : [good, bad]).join(":"));
    expect(() => loadKubeconfig({})).toThrow(
      new KubeconfigError(`${bad}:5: not valid YAML: bad indentation of a mapping entry, column 4`),
    );
  });
});
