// The worker's watches of a cluster (src/live/watch-cache.ts), against the real
// API server, kubectl making the changes: what a kind's watch holds follows
// creates, edits and deletes without another LIST; a watch whose connection is
// cut resumes where it was and shows what changed during the outage; and a
// scan answered from the watches sends no LIST and finds the drift a LIST
// would. The shared API server is never touched: the cut is a proxy's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { runScan } from "../../src/cli/run-scan.ts";
import { ClusterSession } from "../../src/live/cluster-session.ts";
import { listObjectsAt } from "../../src/live/list-objects.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { WatchCache } from "../../src/live/watch-cache.ts";
import type { KubeObject } from "../../src/model/types.ts";
import { client, kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { rolledOut } from "../helpers/controllers.ts";
import { type CutProxy, proxyTestCluster } from "../helpers/cut-proxy.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { waitFor } from "../helpers/redis.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";
import { expireWatchWindow } from "../helpers/watch-window.ts";

let cache: WatchCache | undefined;
let proxy: CutProxy | undefined;
let scratch: string | undefined;
const namespaces: string[] = [];
const scenarios: Scenario[] = [];
afterEach(async () => {
  cache?.stop();
  await proxy?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  await Promise.all(scenarios.splice(0).map((s) => s.cleanup()));
  await Promise.all(
    namespaces.splice(0).map((ns) => kubectl(["delete", "namespace", ns, "--wait=false"]).catch(() => undefined)),
  );
  cache = proxy = scratch = undefined;
});

/** A namespace with ConfigMaps `names`, each labelled `app.test/owner=<owner>`, and an unlabelled one. */
async function configMaps(owner: string, names: string[]): Promise<string> {
  const ns = uniqueName("watch");
  namespaces.push(ns);
  await kubectl(["create", "namespace", ns]);
  const items = [...names, "unlabelled"].map((name) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: ns, ...(name === "unlabelled" ? {} : { labels: { "app.test/owner": owner } }) },
    data: { LOG_LEVEL: "info" },
  }));
  await kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "List", items }));
  return ns;
}

async function configMapResource(kubeconfig = kubeconfigPath()) {
  const session = new ClusterSession(loadKubeconfig({ kubeconfig }), { discoveryCache: undefined });
  return (await session.discover()).find("v1", "ConfigMap")!;
}

/** name → data.LOG_LEVEL of what the watch holds, when it is current. */
async function held(c: WatchCache, selector: string): Promise<Record<string, string> | undefined> {
  const answer = await c.objects(await configMapResource(), selector, false);
  if (answer.source !== "watch") return undefined;
  return Object.fromEntries(
    answer.objects.map((o: KubeObject) => [o.metadata.name, String((o.data as Record<string, string>)?.LOG_LEVEL)]),
  );
}

describe("a watch cache of a cluster", () => {
  it("follows kubectl's creates, edits and deletes of the selected objects, with one LIST", async () => {
    const owner = uniqueName("o");
    const selector = `app.test/owner=${owner}`;
    const ns = await configMaps(owner, ["a", "b", "c"]);
    cache = new WatchCache({ kubeConfig: loadKubeconfig({ kubeconfig: kubeconfigPath() }) });
    expect(await held(cache, selector)).toEqual({ a: "info", b: "info", c: "info" });

    await kubectl(["-n", ns, "patch", "configmap", "a", "-p", JSON.stringify({ data: { LOG_LEVEL: "debug" } })]);
    await kubectl(["-n", ns, "delete", "configmap", "c"]);
    await kubectl(["-n", ns, "create", "configmap", "d", "--from-literal=LOG_LEVEL=warn"]);
    await kubectl(["-n", ns, "label", "configmap", "d", `app.test/owner=${owner}`]);
    const want = { a: "debug", b: "info", d: "warn" };
    const seen = await waitFor(
      "the changes in the watch",
      async () => {
        const now = await held(cache!, selector);
        return JSON.stringify(now) === JSON.stringify(want) && now;
      },
      30_000,
    );
    expect(seen).toEqual(want);
    // Each object as a GET gives it, but its status (never compared).
    const answer = await cache.objects(await configMapResource(), selector, false);
    const a = answer.source === "watch" ? answer.objects.find((o) => o.metadata.name === "a") : undefined;
    expect(a).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: ns } });
    expect(a?.metadata.managedFields?.length).toBeGreaterThan(0);
    expect(cache.stats()).toMatchObject({ watches: 1, current: 1, lists: 1, expired: 0 });
  });

  it("holds only the metadata of a kind asked for metadata only", async () => {
    const owner = uniqueName("o");
    const ns = await configMaps(owner, ["a"]);
    cache = new WatchCache({ kubeConfig: loadKubeconfig({ kubeconfig: kubeconfigPath() }) });
    const resource = await configMapResource();
    const first = await cache.objects(resource, `app.test/owner=${owner}`, true);
    expect(first.source).toBe("watch");
    await kubectl(["-n", ns, "create", "configmap", "e", "--from-literal=LOG_LEVEL=warn"]);
    await kubectl(["-n", ns, "label", "configmap", "e", `app.test/owner=${owner}`]);
    const objects = await waitFor("the new object's metadata", async () => {
      const answer = await cache!.objects(resource, `app.test/owner=${owner}`, true);
      return answer.source === "watch" && answer.objects.length === 2 && answer.objects;
    });
    for (const o of objects) {
      expect(o).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: ns } });
      expect(o.data).toBeUndefined();
      expect(o.metadata.managedFields).toBeUndefined();
    }
  });

  it("resumes after the API server's connection is cut, not trusted meanwhile, and shows what changed during the cut", async () => {
    const owner = uniqueName("o");
    const selector = `app.test/owner=${owner}`;
    const ns = await configMaps(owner, ["a", "b"]);
    scratch = mkdtempSync(join(tmpdir(), "undrift-watch-"));
    const through = join(scratch, "through-proxy.kubeconfig");
    proxy = await proxyTestCluster(through);
    cache = new WatchCache({ kubeConfig: loadKubeconfig({ kubeconfig: through }), waitMs: 200 });
    expect(await held(cache, selector)).toEqual({ a: "info", b: "info" });

    await proxy.cut();
    // While it is cut, the cache says it cannot answer: a scan LISTs (and fails the way a LIST does).
    await waitFor("the watch to notice the cut", async () => (await held(cache!, selector)) === undefined);
    await kubectl(["-n", ns, "patch", "configmap", "b", "-p", JSON.stringify({ data: { LOG_LEVEL: "debug" } })]);
    await proxy.restore();
    const seen = await waitFor(
      "the change made during the cut",
      async () => {
        const now = await held(cache!, selector);
        return now?.b === "debug" && now;
      },
      45_000,
    );
    expect(seen).toEqual({ a: "info", b: "debug" });
    // Resumed from its resourceVersion: no second LIST.
    expect(cache.stats()).toMatchObject({ lists: 1, expired: 0 });
    expect(cache.stats().resumed).toBeGreaterThan(0);
  });

  it("answers a scan with no LIST once its watches are current, and finds the same drift a LIST finds", async () => {
    const s = scenario({ files: { "manifests/web.yaml": webDeployment } });
    scenarios.push(s);
    await s.applyGit();
    await kubectl(["scale", "deployment", "web", "-n", s.namespace, "--replicas=5"]);
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    cache = new WatchCache({ kubeConfig });
    const scan = () =>
      runScan({
        repoDir: s.repoDir,
        targetName: s.target,
        kubeConfig,
        session: new ClusterSession(kubeConfig, { shareLists: true, watches: cache! }),
      });
    const alone = await runScan({ repoDir: s.repoDir, targetName: s.target, kubeConfig });
    const first = await scan();
    const second = await scan();
    expect(second.report.fingerprint).toBe(alone.report.fingerprint);
    expect(second.report.resources[0]?.changes).toContainEqual(
      expect.objectContaining({ path: "/spec/replicas", live: 5 }),
    );
    // The first scan's kinds were listed once, by the watches; the second sends only discovery and dry-runs.
    expect(first.report.stats!.cache!.watched).toBeGreaterThan(10);
    expect(second.report.stats!.cache).toEqual({
      watched: expect.any(Number),
      listed: 0,
      dryRunsReused: expect.any(Number),
    });
    expect(second.report.stats!.cache!.watched).toBeGreaterThan(10);
    expect(second.report.problems).toEqual([]);

    // A change made now is in the next scan, answered from the watch.
    await kubectl(["scale", "deployment", "web", "-n", s.namespace, "--replicas=6"]);
    const third = await waitFor("the scale in a scan from the watch", async () => {
      const r = await scan();
      return r.report.resources[0]?.changes.some((c) => c.path === "/spec/replicas" && c.live === 6) && r;
    });
    expect(third.report.stats!.cache!.listed).toBe(0);
  });
});

describe("dry-runs", () => {
  it("are sent again only for an object written since, or whose desired state changed", async () => {
    const s = scenario({ files: { "manifests/web.yaml": webDeployment } });
    scenarios.push(s);
    await s.applyGit();
    await kubectl(["scale", "deployment", "web", "-n", s.namespace, "--replicas=5"]);
    // The controller's status writes give new resourceVersions while the rollout runs: wait them out.
    await rolledOut(s.namespace, "web");
    const kubeConfig = loadKubeconfig({ kubeconfig: kubeconfigPath() });
    cache = new WatchCache({ kubeConfig });
    const scan = async () => {
      const { report } = await runScan({
        repoDir: s.repoDir,
        targetName: s.target,
        kubeConfig,
        session: new ClusterSession(kubeConfig, { shareLists: true, watches: cache! }),
      });
      return { report, stats: report.stats!, changes: report.resources.find((r) => r.kind === "Deployment")!.changes };
    };
    const replicas = (live: number) => expect.objectContaining({ path: "/spec/replicas", live });
    // Discovery written to its disk cache first, as the tests before this one leave it: the first scan then
    // revalidates it as the second does, and their request counts differ by the dry-runs alone. (Run alone, the
    // first scan also fetched discovery, one request more.)
    await new ClusterSession(kubeConfig).discover();

    const first = await scan();
    expect(first.changes).toContainEqual(replicas(5));
    expect(first.stats.dryRuns).toBeGreaterThan(0);
    expect(first.stats.cache!.dryRunsReused).toBe(0);

    // Nothing written, nothing changed in Git: the same drift, judged without a dry-run.
    const second = await scan();
    expect(second.report.fingerprint).toBe(first.report.fingerprint);
    expect(second.changes).toEqual(first.changes);
    expect(second.stats.dryRuns).toBe(0);
    expect(second.stats.cache!.dryRunsReused).toBe(first.stats.dryRuns);
    expect(second.stats.requests).toBe(first.stats.requests - first.stats.dryRuns);

    // Written by hand since: the object's new state is dry-run again, and the new drift found.
    await kubectl(["annotate", "deployment", "web", "-n", s.namespace, "team=checkout"]);
    const third = await waitFor("the annotation in a scan from the watch", async () => {
      const r = await scan();
      return r.changes.some((c) => c.path === "/metadata/annotations/team") && r;
    });
    expect(third.stats.dryRuns).toBeGreaterThan(0);
    expect(third.stats.cache!.dryRunsReused).toBe(0);

    // Git changed (and the object did not): its new desired state is dry-run.
    const file = join(s.repoDir, "manifests/web.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("replicas: 2 # Git says two", "replicas: 3"));
    const fourth = await scan();
    expect(fourth.changes).toContainEqual(expect.objectContaining({ path: "/spec/replicas", desired: 3, live: 5 }));
    expect(fourth.stats.dryRuns).toBeGreaterThan(0);
    expect(fourth.stats.cache!.dryRunsReused).toBe(0);

    // A cache stopped (its lease lost) keeps no answer for the worker that takes it next time.
    cache.stop();
    expect(cache.dryRuns.size).toBe(0);
  });
});

describe("a watch that expires", () => {
  // A watch resumed from a resourceVersion the server no longer has is answered 410 Gone. The test cluster
  // serves LimitRanges from etcd, not its watch cache, and compacts etcd's history every few seconds
  // (scripts/cluster/cluster.ts; a kind served from the watch cache keeps 75 s of changes at least): while
  // the connection is cut, a watch from a resourceVersion read after the cache's LIST is asked until the
  // server answers it 410.
  it("is answered 410 on resume, lists again, and shows what changed meanwhile", async () => {
    const owner = uniqueName("o");
    const selector = `app.test/owner=${owner}`;
    const ns = uniqueName("watch");
    namespaces.push(ns);
    await kubectl(["create", "namespace", ns]);
    const limitRange = (cpu: string) => ({
      apiVersion: "v1",
      kind: "LimitRange",
      metadata: { name: "a", namespace: ns, labels: { "app.test/owner": owner } },
      spec: { limits: [{ type: "Container", max: { cpu: "2" }, default: { cpu } }] },
    });
    const admin = client();
    const path = `/api/v1/namespaces/${ns}/limitranges`;
    await admin.send({ method: "POST", path, body: limitRange("100m") });
    scratch = mkdtempSync(join(tmpdir(), "undrift-watch-"));
    const through = join(scratch, "through-proxy.kubeconfig");
    proxy = await proxyTestCluster(through);
    cache = new WatchCache({ kubeConfig: loadKubeconfig({ kubeconfig: through }), waitMs: 200 });
    const session = new ClusterSession(loadKubeconfig({ kubeconfig: kubeconfigPath() }), { discoveryCache: undefined });
    const resource = (await session.discover()).find("v1", "LimitRange")!;
    const cpus = async () => {
      const answer = await cache!.objects(resource, selector, false);
      if (answer.source !== "watch") return undefined;
      return answer.objects.map((o) => {
        const limits = (o.spec as { limits: Array<{ default: { cpu: string } }> }).limits;
        return `${o.metadata.name}:${limits[0]!.default.cpu}`;
      });
    };
    expect(await cpus()).toEqual(["a:100m"]);
    await proxy.cut();
    // Read after the cut, when the cache's own resourceVersion can no longer move (no event, no bookmark): a
    // 410 for this one means a 410 for the cache's. Read before it, a bookmark could leave the cache newer.
    const { resourceVersion } = await listObjectsAt({ client: admin, resource, namespace: ns });
    await admin.send({ method: "PUT", path: `${path}/a`, body: limitRange("200m") });
    expect(await expireWatchWindow({ admin, path, resourceVersion })).toBe(true);
    await proxy.restore();
    const seen = await waitFor(
      "the change made while the watch was cut",
      async () => {
        const now = await cpus();
        return now?.[0] === "a:200m" && now;
      },
      60_000,
    );
    expect(seen).toEqual(["a:200m"]);
    expect(cache.stats()).toMatchObject({ expired: 1, lists: 2 });
  });
});

describe("an identity that may list a kind but not watch it", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c().catch(() => undefined)));
  });

  it("gets that kind LISTed, and the scan's sources name it as refused", async () => {
    const owner = uniqueName("o");
    const ns = await configMaps(owner, ["a"]);
    const role = uniqueName("undrift-no-watch");
    await kubectl(["-n", ns, "create", "serviceaccount", "lister"]);
    await kubectl(["create", "clusterrole", role, "--verb=get,list", "--resource=configmaps"]);
    cleanups.push(() => kubectl(["delete", "clusterrole", role]));
    await kubectl(["create", "clusterrolebinding", role, `--clusterrole=${role}`, `--serviceaccount=${ns}:lister`]);
    cleanups.push(() => kubectl(["delete", "clusterrolebinding", role]));
    const token = (await kubectl(["-n", ns, "create", "token", "lister", "--duration=10m"])).trim();
    scratch = mkdtempSync(join(tmpdir(), "undrift-watch-"));
    const file = join(scratch, "lister.kubeconfig");
    const config = parse(readFileSync(kubeconfigPath(), "utf8")) as {
      users: Array<{ name: string; user: Record<string, unknown> }>;
    };
    for (const user of config.users) user.user = { token };
    writeFileSync(file, stringify(config), { mode: 0o600 });
    const kubeConfig = loadKubeconfig({ kubeconfig: file });
    cache = new WatchCache({ kubeConfig });
    const session = new ClusterSession(kubeConfig, { shareLists: true, watches: cache, discoveryCache: undefined });

    const tracked = await session.listTracked(`app.test/owner=${owner}`, Promise.resolve(new Set(["/ConfigMap"])));
    // Found all the same, by a LIST; and said: the ConfigMaps are LISTed on every scan.
    expect([...tracked.objects.keys()].filter((k) => k.includes(ns))).toHaveLength(1);
    const refused = (tracked.sources?.refused ?? []).map(
      (r) => `${r.resource.kind} ${r.refusal.verb} ${r.refusal.status}`,
    );
    expect(refused).toContain("ConfigMap WATCH 403");
    expect(tracked.sources?.watched).toBe(0);
  });
});
