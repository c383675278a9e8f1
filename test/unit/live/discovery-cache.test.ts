import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CachedDiscovery, DiscoveryCache } from "../../../src/live/discovery-cache.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function cache(): DiscoveryCache {
  const dir = mkdtempSync(join(tmpdir(), "undrift-cache-test-"));
  dirs.push(dir);
  return new DiscoveryCache(join(dir, "discovery"));
}

const entry = (server: string): CachedDiscovery => ({
  server,
  fetchedAt: 1_000,
  aggregated: true,
  groupsEtag: '"abc"',
  core: [
    {
      group: "",
      version: "v1",
      kind: "ConfigMap",
      resource: "configmaps",
      namespaced: true,
      verbs: ["list"],
      preferred: true,
    },
  ],
  groups: [],
});

describe("DiscoveryCache", () => {
  it("gives back what it wrote, per server, and nothing for a server it never saw", async () => {
    const c = cache();
    await c.write(entry("https://127.0.0.1:6443"));
    await c.write(entry("https://127.0.0.1:7443"));
    expect(await c.read("https://127.0.0.1:6443")).toMatchObject(entry("https://127.0.0.1:6443"));
    expect(await c.read("https://10.0.0.1:6443")).toBeUndefined();
    // One file per server, named after its host and port, with no half-written file left.
    expect(readdirSync(c.dir).sort()).toEqual([
      expect.stringMatching(/^127\.0\.0\.1_6443-[0-9a-f]{12}\.json$/),
      expect.stringMatching(/^127\.0\.0\.1_7443-[0-9a-f]{12}\.json$/),
    ]);
  });

  it("keeps two servers whose URLs differ only in their path apart", async () => {
    const c = cache();
    expect(c.fileFor("https://rancher.example.com/k8s/clusters/a")).not.toBe(
      c.fileFor("https://rancher.example.com/k8s/clusters/b"),
    );
  });

  it("treats a file cut short or of another format as no cache", async () => {
    const c = cache();
    await c.write(entry("https://a:6443"));
    writeFileSync(c.fileFor("https://a:6443"), '{"format":1,"server":"https://a:6443","co');
    expect(await c.read("https://a:6443")).toBeUndefined();
    writeFileSync(c.fileFor("https://a:6443"), JSON.stringify({ ...entry("https://a:6443"), format: 0 }));
    expect(await c.read("https://a:6443")).toBeUndefined();
  });

  it("goes where the environment says, undrift's own cache folder by default, or nowhere", () => {
    expect(DiscoveryCache.fromEnv({ UNDRIFT_DISCOVERY_CACHE: "/tmp/x" })?.dir).toBe("/tmp/x");
    expect(DiscoveryCache.fromEnv({ UNDRIFT_CACHE: "/var/cache/undrift" })?.dir).toBe("/var/cache/undrift/discovery");
    expect(DiscoveryCache.fromEnv({})?.dir).toBe(join(homedir(), ".cache", "undrift", "discovery"));
    expect(DiscoveryCache.fromEnv({ UNDRIFT_DISCOVERY_CACHE: "off" })).toBeUndefined();
  });

  it("never fails a scan over a folder it cannot write", async () => {
    const root = cache().dir.replace(/discovery$/, "");
    writeFileSync(join(root, "a-file"), "");
    const c = new DiscoveryCache(join(root, "a-file", "discovery")); // root may write anywhere; not under a file
    await expect(c.write(entry("https://a:6443"))).resolves.toBeUndefined();
    expect(await c.read("https://a:6443")).toBeUndefined();
  });
});
