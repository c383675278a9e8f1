// What is drift and what is not, against a real API server: defaults and
// normalized values are not; controllers' fields are not; hand edits are, with
// who made them; ignore rules and noise filters remove what they name.
import { afterEach, describe, expect, it } from "vitest";
import type { DriftReport, ResourceReport } from "../../src/model/types.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const deployment = `# The web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2 # Git says two
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
          env:
            - name: LOG_LEVEL
              value: info
          resources:
            requests:
              cpu: "0.5"
              memory: 128Mi
`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

async function withDeployment(target?: Record<string, unknown>): Promise<Scenario> {
  current = scenario({ files: { "manifests/web.yaml": deployment }, ...(target ? { target } : {}) });
  await current.applyGit();
  return current;
}

function resource(report: DriftReport, kind: string, name: string): ResourceReport {
  const found = report.resources.find((r) => r.kind === kind && r.name === name);
  if (!found) throw new Error(`${kind}/${name} not in report: ${JSON.stringify(report.resources.map((r) => r.name))}`);
  return found;
}

describe("undrift scan: drift rules", () => {
  it("reports no drift for defaulted fields and cpu 0.5 stored as 500m, and confirms nothing by dry-run", async () => {
    const s = await withDeployment();
    const live = JSON.parse(await kubectl(["-n", s.namespace, "get", "deploy", "web", "-o", "json"]));
    expect(live.spec.template.spec.containers[0].resources.requests.cpu).toBe("500m");

    const { code, report } = await s.scanReport();
    expect(code).toBe(0);
    expect(report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(report.stats?.dryRuns).toBe(0);
  });

  it("ignores an annotation a controller added", async () => {
    const s = await withDeployment();
    await kubectl([
      "-n",
      s.namespace,
      "annotate",
      "deploy/web",
      "cert-manager.io/issuer=letsencrypt",
      "--field-manager=cert-manager",
    ]);
    const { code, report } = await s.scanReport();
    expect(code).toBe(0);
    expect(resource(report, "Deployment", "web").status).toBe("in-sync");
  });

  it("reports an annotation and an env var added with kubectl, naming the manager and the time", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "annotate", "deploy/web", "oncall=alice"]);
    await kubectl(["-n", s.namespace, "set", "env", "deploy/web", "DEBUG=1"]);
    const { code, report } = await s.scanReport();
    expect(code).toBe(1);
    const web = resource(report, "Deployment", "web");
    expect(web.status).toBe("drifted");
    const annotation = web.changes.find((c) => c.path === "/metadata/annotations/oncall");
    expect(annotation).toMatchObject({ live: "alice", manager: "kubectl-annotate" });
    expect(annotation?.desired).toBeUndefined();
    expect(Date.parse(annotation?.changedAt ?? "")).not.toBeNaN();
    const env = web.changes.find((c) => c.path === "/spec/template/spec/containers/0/env/1");
    expect(env).toMatchObject({ live: { name: "DEBUG", value: "1" }, manager: "kubectl-set" });
    expect(web.changes).toHaveLength(2);
  });

  it("reports a value changed with kubectl edit-like patches, with desired and live values", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.28"]);
    const { report } = await s.scanReport();
    const web = resource(report, "Deployment", "web");
    expect(web.changes).toEqual([
      expect.objectContaining({
        path: "/spec/template/spec/containers/0/image",
        desired: "nginx:1.27",
        live: "nginx:1.28",
        manager: "kubectl-set",
      }),
    ]);
  });

  it("reports replicas an autoscaler changed, unless ignored by pointer or by manager", async () => {
    const s = await withDeployment();
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "deploy/web",
      "--field-manager=hpa-controller",
      "-p",
      '{"spec":{"replicas":5}}',
    ]);
    const drifted = await s.scanReport();
    expect(resource(drifted.report, "Deployment", "web").changes).toEqual([
      expect.objectContaining({ path: "/spec/replicas", desired: 2, live: 5, manager: "hpa-controller" }),
    ]);

    s.write({
      ".github/undrift.yml": config(s, {
        ignoreDifferences: [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }],
      }),
    });
    expect((await s.scanReport()).code).toBe(0);

    s.write({
      ".github/undrift.yml": config(s, { ignoreDifferences: [{ managedFieldsManagers: ["hpa-controller"] }] }),
    });
    expect((await s.scanReport()).code).toBe(0);
  });

  it("matches containers by name when a webhook inserted a sidecar before the app container", async () => {
    const s = await withDeployment();
    const sidecar = { name: "istio-proxy", image: "istio/proxyv2:1.24" };
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "deploy/web",
      "--type=json",
      "--field-manager=istio-sidecar-injector",
      "-p",
      JSON.stringify([{ op: "add", path: "/spec/template/spec/containers/0", value: sidecar }]),
    ]);
    expect((await s.scanReport()).code).toBe(0);

    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.29"]);
    const { report } = await s.scanReport();
    expect(resource(report, "Deployment", "web").changes).toEqual([
      expect.objectContaining({
        path: "/spec/template/spec/containers/1/image",
        live: "nginx:1.29",
        desired: "nginx:1.27",
      }),
    ]);
  });

  it("ignores what jq path expressions select, with real jq semantics", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "annotate", "deploy/web", "team.example.com/owner=bob"]);
    await kubectl(["-n", s.namespace, "set", "env", "deploy/web", "TRACE=1"]);
    s.write({
      ".github/undrift.yml": config(s, {
        ignoreDifferences: [
          {
            kind: "Deployment",
            jqPathExpressions: [
              '.metadata.annotations."team.example.com/owner"',
              '.spec.template.spec.containers[].env[]? | select(.name | startswith("TRACE"))',
            ],
          },
        ],
      }),
    });
    expect((await s.scanReport()).code).toBe(0);
  });

  it("rejects a jq expression that does not compile, naming the rule", async () => {
    const s = await withDeployment();
    s.write({
      ".github/undrift.yml": config(s, { ignoreDifferences: [{ kind: "Deployment", jqPathExpressions: [".spec["] }] }),
    });
    const result = await s.scan();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ignoreDifferences\[0\]\.jqPathExpressions: \.spec\[: .*syntax error/);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("does not report kubectl rollout restart, unless that noise filter is switched off", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "rollout", "restart", "deploy/web"]);
    expect((await s.scanReport()).code).toBe(0);
    s.write({ ".github/undrift.yml": config(s, { noiseFilters: { "kubectl-restarted-at": false } }) });
    const { report } = await s.scanReport();
    expect(resource(report, "Deployment", "web").changes).toEqual([
      expect.objectContaining({
        path: "/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt",
        manager: "kubectl-rollout",
      }),
    ]);
  });

  it("reports an orphan that carries the tracking label, and never an unlabelled object", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "create", "configmap", "stray", "--from-literal=a=b"]);
    expect((await s.scanReport()).code).toBe(0);
    await kubectl(["-n", s.namespace, "label", "configmap", "stray", `undrift.dev/target=${s.target}`]);
    const { code, report } = await s.scanReport();
    expect(code).toBe(1);
    expect(resource(report, "ConfigMap", "stray").status).toBe("orphaned");
    expect(report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 1 });
  });

  it("adopts objects first made with kubectl create: their defaults are not hand edits, a later edit is", async () => {
    current = scenario({
      files: {
        "manifests/web.yaml": deployment,
        "manifests/svc.yaml":
          "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n    - port: 80\n",
      },
    });
    const s = current;
    await kubectl(["create", "namespace", s.namespace]);
    for (const file of ["web.yaml", "svc.yaml"]) {
      await kubectl(["-n", s.namespace, "create", "-f", `${s.repoDir}/manifests/${file}`]);
    }
    await kubectl(["-n", s.namespace, "label", "deploy/web", "svc/web", `undrift.dev/target=${s.target}`]);
    const adopted = await s.scanReport();
    expect(adopted.report.resources.map((r) => [r.kind, r.status, r.changes])).toEqual([
      ["Service", "in-sync", []],
      ["Deployment", "in-sync", []],
    ]);
    expect(adopted.code).toBe(0);

    await kubectl(["-n", s.namespace, "set", "env", "deploy/web", "DEBUG=1"]);
    const { report } = await s.scanReport();
    expect(resource(report, "Deployment", "web").changes).toEqual([
      expect.objectContaining({ path: "/spec/template/spec/containers/0/env/1", manager: "kubectl-set" }),
    ]);
  });

  it("reports an object deleted by hand as missing", async () => {
    const s = await withDeployment();
    await kubectl(["-n", s.namespace, "delete", "deploy/web"]);
    const { code, report } = await s.scanReport();
    expect(code).toBe(1);
    expect(resource(report, "Deployment", "web")).toMatchObject({
      status: "missing",
      source: { file: "manifests/web.yaml", document: 0 },
    });
  });
});

function config(s: Scenario, extra: Record<string, unknown>): string {
  return JSON.stringify({
    targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, ...extra }],
  });
}
