// charts/undrift as a platform engineer checks a chart before installing it:
// `helm lint --strict`, `helm template` with the value sets people use (the
// defaults, agent mode at each RBAC tier, every optional object on, remote
// clusters from kubeconfig Secrets), each accepted by the real API server in a
// server-side dry run; the monitoring objects also against prometheus-operator's
// own CRDs; and a wrong value refused by the schema before anything is applied.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { loadClusterRegistryText } from "../../src/config/cluster-registry.ts";
import { kubectl, uniqueName } from "../helpers/cluster.ts";
import { deleteNamespaces, type Obj } from "../helpers/controllers.ts";
import { eventually, GaveUp } from "../helpers/eventually.ts";
import { chartDir, helm, removeHelmHome, template, valuesFile } from "../helpers/helm.ts";

const namespace = uniqueName("chart");
const release = "undrift";
const made: string[] = [];

beforeAll(async () => {
  await kubectl(["create", "namespace", namespace]);
  made.push(namespace);
});
afterAll(async () => {
  await deleteNamespaces(made);
  removeHelmHome();
});

function objects(yaml: string): Obj[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
}

const find = (list: Obj[], kind: string, name: string) => list.find((o) => o.kind === kind && o.metadata.name === name);

/** What `kubectl apply --server-side --dry-run=server` says of each object: "<kind>/<name> serverside-applied (server dry run)". */
async function dryRun(yaml: string): Promise<string[]> {
  const out = await kubectl(
    ["apply", "--server-side", "--dry-run=server", "--field-manager=helm-test", "-f", "-"],
    yaml,
  );
  return out.trim().split("\n");
}

const agent = (tier: string, secrets = false) => ({
  web: { enabled: false },
  clusters: { local: { inCluster: true, repositories: ["acme/gitops"] } },
  workers: [{ name: "local", clusters: ["local"], rbac: { tier, secrets } }],
});

const remote = {
  clusters: {
    "prod-eu": {
      kubeconfigSecret: { name: "prod-eu-kubeconfig" },
      context: "prod-eu",
      repositories: ["acme/gitops"],
    },
    "prod-us": { kubeconfigSecret: { name: "prod-us-kubeconfig", key: "config" }, repositories: ["acme/*"] },
  },
  workers: [
    { name: "eu", clusters: ["prod-eu"] },
    { name: "us", clusters: ["prod-us"], replicas: 2 },
  ],
};

const everything = {
  ...remote,
  redis: { url: "rediss://redis.example:6380/2", password: { existingSecret: "redis" }, tls: { caSecret: "redis-ca" } },
  web: {
    baseUrl: "https://undrift.acme.example",
    ingress: {
      enabled: true,
      className: "nginx",
      host: "undrift.acme.example",
      tls: [{ hosts: ["undrift.acme.example"], secretName: "undrift-tls" }],
    },
  },
  networkPolicy: {
    enabled: true,
    metricsFrom: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }],
    egress: [{ to: [{ ipBlock: { cidr: "0.0.0.0/0" } }], ports: [{ port: 443 }, { port: 6380 }] }],
  },
  serviceMonitor: { enabled: true, labels: { release: "prometheus" } },
  prometheusRule: { enabled: true, labels: { release: "prometheus" } },
  dashboard: { enabled: true },
  statusPage: { oauth: { existingSecret: "undrift-oauth" } },
  attribution: { recorder: { port: 8443, tlsSecret: "undrift-recorder-tls", existingSecret: "undrift-recorder" } },
};

describe("charts/undrift: lint and render", () => {
  it("helm lint --strict passes with the defaults and with every value set below", async () => {
    for (const values of [{}, agent("prune", true), everything]) {
      const result = await helm(["lint", "--strict", chartDir, "-f", valuesFile(values)]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain("1 chart(s) linted, 0 chart(s) failed");
    }
  });

  it("the defaults: a web Deployment of 2 replicas, its Service and PDB, no worker; the API server accepts them", async () => {
    const yaml = await template(release, namespace, {});
    const list = objects(yaml);
    expect(list.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      "ConfigMap/undrift-clusters",
      "Deployment/undrift-web",
      "PodDisruptionBudget/undrift-web",
      "Service/undrift-web",
      "ServiceAccount/undrift-web",
    ]);
    const web = find(list, "Deployment", "undrift-web")!;
    expect(web.spec.replicas).toBe(2);
    const pod = web.spec.template.spec;
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    const container = pod.containers[0];
    // `node bin/undrift.js` reads no shebang: the chart passes its V8 flag (a small young generation) itself.
    expect(container.command).toEqual(["node", "--max-semi-space-size=4", "bin/undrift.js"]);
    expect(container.args).toEqual(["web"]);
    expect(container.image).toBe("ghcr.io/undrift-dev/undrift:0.1.0");
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits).toBeDefined();
    // What must be writable is an emptyDir: renders and snapshots under /tmp, discovery under UNDRIFT_CACHE.
    expect(container.volumeMounts.filter((m: Obj) => !m.readOnly).map((m: Obj) => m.mountPath)).toEqual([
      "/tmp",
      "/var/cache/undrift",
    ]);
    expect((await dryRun(yaml)).sort()).toEqual([
      "configmap/undrift-clusters serverside-applied (server dry run)",
      "deployment.apps/undrift-web serverside-applied (server dry run)",
      "poddisruptionbudget.policy/undrift-web serverside-applied (server dry run)",
      "service/undrift-web serverside-applied (server dry run)",
      "serviceaccount/undrift-web serverside-applied (server dry run)",
    ]);
  });

  it.each([
    ["read", false, ["get", "list", "watch"]],
    ["apply", false, ["get", "list", "watch", "patch", "create"]],
    ["prune", false, ["get", "list", "watch", "patch", "create", "delete"]],
    ["apply", true, ["get", "list", "watch", "patch", "create"]],
  ])(
    "agent mode, tier %s (Secrets: %s): the worker's ServiceAccount gets only the tier's verbs",
    async (tier, secrets, verbs) => {
      const yaml = await template(`agent-${tier}`, namespace, agent(tier, secrets));
      const list = objects(yaml);
      const name = `agent-${tier}-undrift-worker-local`;
      expect(list.some((o) => o.kind === "Deployment" && o.metadata.name.endsWith("-web"))).toBe(false);
      const worker = find(list, "Deployment", name)!;
      expect(worker.spec.template.spec.containers[0].command).toEqual([
        "node",
        "--max-semi-space-size=4",
        "bin/undrift.js",
      ]);
      expect(worker.spec.template.spec.containers[0].args).toEqual(["worker", "--clusters", "local"]);
      expect(worker.spec.template.spec.automountServiceAccountToken).toBe(true);
      expect(worker.spec.template.spec.serviceAccountName).toBe(name);
      const registry = find(list, "ConfigMap", `agent-${tier}-undrift-clusters`)!;
      expect(registry.data["clusters.yaml"]).toBe(
        "clusters:\n  local:\n    inCluster: true\n    repositories:\n    - acme/gitops\n",
      );
      const role = find(list, "ClusterRole", name)!;
      const resourceRules = role.rules.filter((r: Obj) => r.resources);
      for (const rule of resourceRules) expect(rule.verbs).toEqual(verbs);
      const granted = resourceRules.flatMap((r: Obj) =>
        r.apiGroups.flatMap((g: string) => r.resources.map((k: string) => `${g}/${k}`)),
      );
      if (secrets) expect(granted).toEqual(["*/*"]);
      else {
        expect(granted).not.toContain("/secrets");
        expect(granted).not.toContain("*/*");
        expect(granted).toEqual(
          expect.arrayContaining(["/configmaps", "/namespaces", "apps/*", "rbac.authorization.k8s.io/*"]),
        );
      }
      expect(find(list, "ClusterRoleBinding", name)!.subjects).toEqual([{ kind: "ServiceAccount", name, namespace }]);
      const applied = await dryRun(yaml);
      expect(applied).toContain(`clusterrole.rbac.authorization.k8s.io/${name} serverside-applied (server dry run)`);
      expect(applied).toContain(`deployment.apps/${name} serverside-applied (server dry run)`);
    },
  );

  it("remote clusters: each worker mounts only the kubeconfig Secret of the cluster it serves; no RBAC, no token", async () => {
    const yaml = await template("remote", namespace, remote);
    const list = objects(yaml);
    expect(list.filter((o) => o.kind === "ClusterRole")).toEqual([]);
    const registry = find(list, "ConfigMap", "remote-undrift-clusters")!;
    expect(registry.data["clusters.yaml"]).toBe(
      [
        "clusters:",
        "  prod-eu:",
        "    context: prod-eu",
        "    kubeconfig: /etc/undrift/kubeconfigs/prod-eu/kubeconfig",
        "    repositories:",
        "    - acme/gitops",
        "  prod-us:",
        "    kubeconfig: /etc/undrift/kubeconfigs/prod-us/kubeconfig",
        "    repositories:",
        "    - acme/*",
        "",
      ].join("\n"),
    );
    const secretsOf = (name: string) =>
      find(list, "Deployment", name)!
        .spec.template.spec.volumes.filter((v: Obj) => v.secret?.secretName?.endsWith("kubeconfig"))
        .map((v: Obj) => v.secret);
    expect(secretsOf("remote-undrift-worker-eu")).toEqual([
      { secretName: "prod-eu-kubeconfig", items: [{ key: "kubeconfig", path: "kubeconfig" }] },
    ]);
    expect(secretsOf("remote-undrift-worker-us")).toEqual([
      { secretName: "prod-us-kubeconfig", items: [{ key: "config", path: "kubeconfig" }] },
    ]);
    const us = find(list, "Deployment", "remote-undrift-worker-us")!;
    expect(us.spec.replicas).toBe(2);
    expect(us.spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(us.spec.template.spec.containers[0].volumeMounts).toContainEqual({
      name: expect.stringMatching(/^kubeconfig-prod-us-[0-9a-f]{8}$/),
      mountPath: "/etc/undrift/kubeconfigs/prod-us",
      readOnly: true,
    });
    const applied = await dryRun(yaml);
    expect(applied.filter((line) => line.startsWith("deployment.apps/"))).toEqual([
      "deployment.apps/remote-undrift-web serverside-applied (server dry run)",
      "deployment.apps/remote-undrift-worker-eu serverside-applied (server dry run)",
      "deployment.apps/remote-undrift-worker-us serverside-applied (server dry run)",
    ]);
  });

  it("self-managed clusters: the audit token Secret is mounted in the web pods only, and the registry names its file", async () => {
    const values = {
      clusters: {
        "prod-eu": { ...remote.clusters["prod-eu"], audit: { tokenSecret: { name: "prod-eu-audit" } } },
        "prod-us": { ...remote.clusters["prod-us"], audit: { clientCertificate: { commonName: "prod-us-apiserver" } } },
      },
      workers: remote.workers,
      attribution: {
        recorder: {
          port: 8443,
          tlsSecret: "undrift-recorder-tls",
          existingSecret: "undrift-recorder",
          clientCaSecret: "undrift-audit-ca",
        },
      },
    };
    const yaml = await template("audit", namespace, values);
    const list = objects(yaml);
    const text = find(list, "ConfigMap", "audit-undrift-clusters")!.data["clusters.yaml"] as string;
    // undrift's own registry loader takes what the chart renders.
    const registry = loadClusterRegistryText(text, "clusters.yaml");
    expect(registry.clusters["prod-eu"]?.audit).toEqual({ token: { file: "/etc/undrift/audit/prod-eu/token" } });
    expect(registry.clusters["prod-us"]?.audit).toEqual({ clientCertificate: { commonName: "prod-us-apiserver" } });
    const web = find(list, "Deployment", "audit-undrift-web")!.spec.template.spec;
    expect(web.volumes.filter((v: Obj) => v.secret?.secretName === "prod-eu-audit")).toEqual([
      {
        name: expect.stringMatching(/^audit-prod-eu-[0-9a-f]{8}$/),
        secret: { secretName: "prod-eu-audit", items: [{ key: "token", path: "token" }] },
      },
    ]);
    expect(web.containers[0].volumeMounts).toContainEqual({
      name: expect.stringMatching(/^audit-prod-eu-[0-9a-f]{8}$/),
      mountPath: "/etc/undrift/audit/prod-eu",
      readOnly: true,
    });
    expect(web.containers[0].env).toContainEqual({
      name: "UNDRIFT_RECORDER_CLIENT_CA_FILE",
      value: "/etc/undrift/recorder-client-ca/ca.crt",
    });
    for (const worker of ["audit-undrift-worker-eu", "audit-undrift-worker-us"]) {
      const spec = find(list, "Deployment", worker)!.spec.template.spec;
      expect(JSON.stringify(spec)).not.toMatch(/prod-eu-audit|undrift-audit-ca/);
    }
    const applied = await dryRun(yaml);
    expect(applied).toContain("deployment.apps/audit-undrift-web serverside-applied (server dry run)");
  });

  it("ingress, NetworkPolicy, ServiceMonitor, PrometheusRule, dashboard and status page on: all accepted by the API server", async () => {
    const yaml = await template("full", namespace, everything);
    const list = objects(yaml);
    const web = find(list, "Deployment", "full-undrift-web")!.spec.template.spec.containers[0];
    // The password reaches REDIS_URL through the kubelet's $(VAR) expansion: it is in no rendered object.
    expect(web.env).toEqual(
      expect.arrayContaining([
        { name: "REDIS_PASSWORD", valueFrom: { secretKeyRef: { name: "redis", key: "redis-password" } } },
        { name: "REDIS_URL", value: "rediss://:$(REDIS_PASSWORD)@redis.example:6380/2" },
        { name: "NODE_EXTRA_CA_CERTS", value: "/etc/undrift/redis-ca/ca.crt" },
        {
          name: "GITHUB_CLIENT_SECRET",
          valueFrom: { secretKeyRef: { name: "undrift-oauth", key: "GITHUB_CLIENT_SECRET" } },
        },
      ]),
    );
    const names = web.env.map((e: Obj) => e.name);
    expect(names.indexOf("REDIS_PASSWORD")).toBeLessThan(names.indexOf("REDIS_URL"));
    expect(find(list, "Ingress", "full-undrift-web")!.spec.rules).toEqual([
      {
        host: "undrift.acme.example",
        http: {
          paths: [
            {
              path: "/api/github/webhooks",
              pathType: "Prefix",
              backend: { service: { name: "full-undrift-web", port: { name: "http" } } },
            },
            // The status page is on (statusPage.oauth): people reach it at the webhooks' host.
            {
              path: "/status",
              pathType: "Prefix",
              backend: { service: { name: "full-undrift-web", port: { name: "http" } } },
            },
          ],
        },
      },
    ]);
    const monitor = find(list, "ServiceMonitor", "full-undrift")!;
    expect(monitor.spec.endpoints.map((e: Obj) => [e.port, e.path, e.interval])).toEqual([
      ["http", "/metrics", "30s"],
      ["metrics", "/metrics", "30s"],
    ]);
    const rule = find(list, "PrometheusRule", "full-undrift")!;
    expect(rule.metadata.labels.release).toBe("prometheus");
    // files/alerts.yaml went through tpl: its thresholds are the values', Prometheus' own braces kept.
    expect(JSON.stringify(rule.spec.groups)).toContain("[30m]");
    expect(JSON.stringify(rule.spec.groups)).not.toContain(".Values");
    const dashboard = find(list, "ConfigMap", "full-undrift-dashboard")!;
    expect(dashboard.metadata.labels.grafana_dashboard).toBe("1");
    expect(JSON.parse(dashboard.data["undrift.json"])).toEqual(
      JSON.parse(readFileSync(join(chartDir, "files/dashboard.json"), "utf8")),
    );
    const applied = await dryRun(yaml);
    for (const line of [
      "ingress.networking.k8s.io/full-undrift-web",
      "networkpolicy.networking.k8s.io/full-undrift-web",
      "networkpolicy.networking.k8s.io/full-undrift-worker",
      "servicemonitor.monitoring.coreos.com/full-undrift",
      "prometheusrule.monitoring.coreos.com/full-undrift",
      "configmap/full-undrift-dashboard",
    ])
      expect(applied).toContain(`${line} serverside-applied (server dry run)`);
  });

  it("a wrong value is refused by the schema, naming the value and what it may be; nothing is rendered", async () => {
    const bad = await helm([
      ...["template", "bad", chartDir, "-f"],
      valuesFile({ workers: [{ name: "local", rbac: { tier: "admin" } }] }),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("values don't meet the specifications of the schema");
    expect(bad.stderr).toMatch(/\/workers\/0\/rbac\/tier.*'read', 'apply', 'prune'/);

    const unknown = await helm([
      ...["template", "bad", chartDir, "-f"],
      valuesFile({ ...remote, workers: [{ name: "eu", clusters: ["prod-asia"] }] }),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'workers[eu].clusters: "prod-asia" is not in clusters: (it has: prod-eu, prod-us)',
    );

    const both = await helm([
      ...["template", "bad", chartDir, "-f"],
      valuesFile({
        clusters: { local: { inCluster: true, kubeconfigSecret: { name: "x" }, repositories: ["acme/gitops"] } },
      }),
    ]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("at '/clusters/local/inCluster': value must be false");
  });
});

describe("charts/undrift: against prometheus-operator's own CRDs", () => {
  // The test cluster serves monitoring.coreos.com as stand-ins (any spec) that other tests use; the real
  // CRDs are installed under a group of this test's own, so their schemas judge the chart's objects
  // without replacing the stand-ins.
  const group = `${uniqueName("m")}.chart-test.undrift.dev`;
  const crds: string[] = [];
  afterAll(async () => {
    if (crds.length > 0) await kubectl(["delete", "crd", "--ignore-not-found", ...crds]);
  });

  it("the ServiceMonitor and PrometheusRule are valid under the CRDs' schemas", async () => {
    const { stdout } = await promisify(execFile)(
      "go",
      ["mod", "download", "-json", `github.com/prometheus-operator/prometheus-operator@${prometheusOperator}`],
      { cwd: chartDir },
    );
    const dir = (JSON.parse(stdout) as { Dir: string }).Dir;
    for (const plural of ["servicemonitors", "prometheusrules"]) {
      const crd = objects(
        readFileSync(join(dir, `example/prometheus-operator-crd/monitoring.coreos.com_${plural}.yaml`), "utf8"),
      )[0]!;
      crd.spec.group = group;
      crd.metadata = { name: `${plural}.${group}` };
      await kubectl(["apply", "--server-side", "-f", "-"], stringify(crd));
      crds.push(crd.metadata.name);
    }
    await kubectl(["wait", "--for=condition=Established", "--timeout=60s", ...crds.map((c) => `crd/${c}`)]);
    const yaml = await template("real", namespace, {
      ...everything,
      serviceMonitor: { enabled: true, scrapeTimeout: "10s" },
    });
    const monitoring = objects(yaml)
      .filter((o) => o.apiVersion === "monitoring.coreos.com/v1")
      .map((o) => stringify({ ...o, apiVersion: `${group}/v1` }))
      .join("---\n");
    // Discovery of a new group takes a moment to reach kubectl: retry until the server knows the kinds.
    const applied = await eventuallyApplied(monitoring);
    expect(applied.sort()).toEqual([
      `prometheusrule.${group}/real-undrift serverside-applied (server dry run)`,
      `servicemonitor.${group}/real-undrift serverside-applied (server dry run)`,
    ]);
    // The schemas do judge: an interval the operator could not parse is refused, as it would be in a real cluster.
    const wrong = monitoring.replace("interval: 30s", "interval: soon");
    await expect(dryRun(wrong)).rejects.toThrow(/spec.endpoints\[0\].interval.*should match/);
  });
});

/** prometheus-operator's release whose CRDs judge the chart (the newest the Go module proxy serves here). */
const prometheusOperator = "v0.85.0";

/** The dry run once the API server serves the CRDs just installed; any other refusal fails at once. */
async function eventuallyApplied(yaml: string): Promise<string[]> {
  return eventually(
    "the API server to serve the CRDs just installed",
    async () => {
      try {
        return await dryRun(yaml);
      } catch (error) {
        if (/no matches for kind|ensure CRDs are installed/.test(String(error))) throw error;
        throw new GaveUp(String(error));
      }
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  );
}
