// Orphans of kinds the target never declares, found by metadata LISTs, and discovery
// kept on disk between runs: a kind that comes, goes or is missing from the cache
// never hides an orphan nor breaks a scan.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runScan } from "../../src/cli/run-scan.ts";
import { ClusterSession } from "../../src/live/cluster-session.ts";
import { type CachedDiscovery, DiscoveryCache } from "../../src/live/discovery-cache.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import type { DriftReport } from "../../src/model/types.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { widgetCrd } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  color: blue
`;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

function setUp(): { s: Scenario; cacheDir: string } {
  const s = scenario({ files: { "manifests/settings.yaml": configMap } });
  const cacheDir = mkdtempSync(join(tmpdir(), "undrift-discovery-"));
  cleanups.push(s.cleanup, async () => rmSync(cacheDir, { recursive: true, force: true }));
  return { s, cacheDir };
}

async function scan(s: Scenario, cacheDir: string): Promise<{ code: number; report: DriftReport }> {
  const args = ["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), "-o", "json"];
  const result = await undrift(args, { env: { ...process.env, UNDRIFT_DISCOVERY_CACHE: cacheDir } });
  if (result.code === 2) throw new Error(`scan failed: ${result.stderr}`);
  return { code: result.code, report: JSON.parse(result.stdout) as DriftReport };
}

function cacheFile(cacheDir: string): string {
  const files = readdirSync(cacheDir).filter((f) => f.endsWith(".json"));
  expect(files).toHaveLength(1);
  return join(cacheDir, files[0]!);
}

const widget = (namespace: string, name: string, labels: Record<string, string>) =>
  JSON.stringify({
    apiVersion: "",
    kind: "Widget",
    metadata: { name, namespace, labels },
    spec: { size: 3, color: "red" },
  });

describe("undrift scan: orphans of undeclared kinds, discovery from the disk cache", () => {
  it("reports a labelled custom object of a kind the target never declares as orphaned, made after the cache was written", async () => {
    const { s, cacheDir } = setUp();
    await s.applyGit();
    expect((await scan(s, cacheDir)).code).toBe(0); // discovery cached before the CRD exists

    const group = `${Math.random().toString(36).slice(2, 8)}.example.com`;
    await kubectl(["apply", "--server-side", "-f", "-"], widgetCrd(group));
    cleanups.push(() => kubectl(["delete", "crd", `widgets.${group}`, "--ignore-not-found", "--wait=false"]));
    await kubectl(["wait", "--for=condition=Established", `crd/widgets.${group}`, "--timeout=60s"]);
    const tracked = { "undrift.dev/target": s.target };
    const objects = [widget(s.namespace, "left-behind", tracked), widget(s.namespace, "someone-elses", {})];
    await kubectl(["apply", "-f", "-"], objects.join("\n").replaceAll('"apiVersion":""', `"apiVersion":"${group}/v1"`));

    const { code, report } = await scan(s, cacheDir);
    expect(code).toBe(1);
    const widgets = report.resources.filter((r) => r.kind === "Widget");
    expect(widgets.map((r) => [r.name, r.status])).toEqual([["left-behind", "orphaned"]]);
    // The orphan is kept whole, as a GET returns it (what text output and codify show), not as the metadata that found it.
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    const session = new ClusterSession(kubeConfig, { discoveryCache: new DiscoveryCache(cacheDir) });
    const scanned = await runScan({ repoDir: s.repoDir, targetName: s.target, kubeConfig, session });
    const orphan = scanned.report.resources.find((r) => r.name === "left-behind");
    expect(orphan?.live?.spec).toEqual({ size: 3, color: "red" });
    expect(report.resources.find((r) => r.name === "settings")?.status).toBe("in-sync");
  });

  it("keeps discovery on disk without credentials, and a warm cache saves the discovery requests", async () => {
    const { s, cacheDir } = setUp();
    await s.applyGit();
    // Other test files add and remove CRDs on the shared API server, and each served kind costs a LIST: compare
    // a cold and a warm scan between which the served kinds stayed the same (the cache file says which it saw).
    // The shared server can also cost a pair one more request (a 429 retried under load, /apis changed and back
    // between the two scans): such a pair is tried again, up to five; a warm cache that saved nothing fails them all.
    const servedKinds = () => {
      const { core, groups } = JSON.parse(readFileSync(cacheFile(cacheDir), "utf8")) as CachedDiscovery;
      return JSON.stringify([core, groups]);
    };
    let cold: Awaited<ReturnType<typeof scan>>;
    let warm: Awaited<ReturnType<typeof scan>>;
    const pairs: string[] = [];
    let same = false;
    let saved = 0;
    for (let attempt = 0; attempt < 5 && !(same && saved === 1); attempt++) {
      rmSync(cacheDir, { recursive: true, force: true });
      cold = await scan(s, cacheDir);
      const before = servedKinds();
      warm = await scan(s, cacheDir);
      same = servedKinds() === before;
      saved = cold.report.stats!.requests - warm.report.stats!.requests;
      pairs.push(`cold ${cold.report.stats!.requests}, warm ${warm.report.stats!.requests}, same kinds: ${same}`);
    }
    expect(same, pairs.join("; ")).toBe(true);
    expect(warm!.report.resources).toEqual(cold!.report.resources);
    // Cold: /api and /apis. Warm: one conditional /apis, answered 304.
    expect(saved, pairs.join("; ")).toBe(1);

    const text = readFileSync(cacheFile(cacheDir), "utf8");
    const secrets = [...readFileSync(kubeconfigPath(), "utf8").matchAll(/(?:token|client-key-data|password): (\S+)/g)];
    expect(secrets.length).toBeGreaterThan(0);
    for (const [, secret] of secrets) expect(text).not.toContain(secret);
  });

  it("discovers again when the cache names a kind the server no longer serves, and the scan still succeeds", async () => {
    const { s, cacheDir } = setUp();
    await s.applyGit();
    await scan(s, cacheDir);
    const file = cacheFile(cacheDir);
    const entry = JSON.parse(readFileSync(file, "utf8")) as CachedDiscovery;
    // A kind gone since the cache was written; in the core group, which no /apis ETag covers.
    const gone = { group: "", version: "v1", kind: "Gone", resource: "gones", namespaced: true, preferred: true };
    const verbs = ["create", "get", "list"];
    writeFileSync(file, JSON.stringify({ ...entry, core: [...entry.core, { ...gone, verbs }] }));

    const { code, report } = await scan(s, cacheDir);
    expect(code).toBe(0);
    expect(report.resources.map((r) => [r.name, r.status])).toEqual([["settings", "in-sync"]]);
    expect(readFileSync(file, "utf8")).not.toContain("gones");
  });

  it("discovers again when the target declares a kind the cache lacks", async () => {
    const { s, cacheDir } = setUp();
    await s.applyGit();
    await scan(s, cacheDir);
    const file = cacheFile(cacheDir);
    const entry = JSON.parse(readFileSync(file, "utf8")) as CachedDiscovery;
    writeFileSync(file, JSON.stringify({ ...entry, core: entry.core.filter((r) => r.kind !== "ConfigMap") }));

    const { code, report } = await scan(s, cacheDir);
    expect(code).toBe(0);
    expect(report.resources.map((r) => [r.name, r.status])).toEqual([["settings", "in-sync"]]);
  });
});
