// undrift codify on a plain target against the real test cluster: drift made
// with kubectl is written back into the YAML, comments and layout kept, and a
// scan afterwards finds Git and the cluster in sync.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const web = `# The web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web} # flow style stays
spec:
  replicas: 2 # Git says two
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        # the application container
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
          env:
            - name: LOG_LEVEL # how chatty
              value: info
          resources:
            requests:
              cpu: "0.5"
              memory: 128Mi
`;

const config = `# Settings of the web tier, two documents.
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: "info" # quoted on purpose
  MODE: fast
---
# Read by the batch jobs.
apiVersion: v1
kind: ConfigMap
metadata:
  name: batch-config
data:
  SCHEDULE: "@daily"
`;

const old = `apiVersion: v1
kind: ConfigMap
metadata:
  name: old
data:
  legacy: "true"
`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

function codify(s: Scenario, extra: string[] = []) {
  return undrift(["codify", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), ...extra]);
}

const read = (s: Scenario, file: string) => readFileSync(join(s.repoDir, file), "utf8");

describe("undrift codify: plain target", () => {
  it("writes scaled replicas, a changed value, a hand-added env var, a deletion and a stray object into Git", async () => {
    current = scenario({
      files: { "manifests/web.yaml": web, "manifests/config.yaml": config, "manifests/old.yaml": old },
    });
    const s = current;
    await s.applyGit();
    const ns = ["-n", s.namespace];
    await kubectl([...ns, "scale", "deploy/web", "--replicas=4"]);
    await kubectl([...ns, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    await kubectl([...ns, "set", "env", "deploy/web", "DEBUG=1"]);
    await kubectl([...ns, "delete", "configmap", "old"]);
    await kubectl([...ns, "create", "configmap", "stray", "--from-literal=owner=alice"]);
    await kubectl([...ns, "label", "configmap", "stray", `undrift.dev/target=${s.target}`]);
    expect((await s.scanReport()).report.summary).toMatchObject({ drifted: 2, missing: 1, orphaned: 1 });

    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("codified 4 objects, 0 not codified");
    expect(result.stdout).toContain(`apps/v1 Deployment ${s.namespace}/web: edited manifests/web.yaml`);
    expect(result.stdout).toContain(`v1 ConfigMap ${s.namespace}/old: removed from manifests/old.yaml`);
    expect(result.stdout).toContain(`v1 ConfigMap ${s.namespace}/stray: added as manifests/configmap-stray.yaml`);

    expect(read(s, "manifests/web.yaml")).toBe(
      web
        .replace("replicas: 2 # Git says two", "replicas: 4 # Git says two")
        .replace(
          "              value: info\n",
          '              value: info\n            - name: DEBUG\n              value: "1"\n',
        ),
    );
    expect(read(s, "manifests/config.yaml")).toBe(config.replace('LOG_LEVEL: "info"', 'LOG_LEVEL: "debug"'));
    expect(existsSync(join(s.repoDir, "manifests/old.yaml"))).toBe(false);
    expect(read(s, "manifests/configmap-stray.yaml")).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stray\ndata:\n  owner: alice\n",
    );

    const after = await s.scanReport();
    expect(after.report.summary).toMatchObject({ drifted: 0, missing: 0, orphaned: 0 });
    expect(after.code).toBe(0);
  });

  it("writes a Deployment made with kubectl create and a sidecar added by patch without the server's defaults", async () => {
    current = scenario({ files: { "manifests/web.yaml": web } });
    const s = current;
    await s.applyGit();
    const ns = ["-n", s.namespace];
    await kubectl([...ns, "create", "deployment", "worker", "--image=busybox:1.36", "--replicas=2"]);
    await kubectl([...ns, "label", "deployment", "worker", `undrift.dev/target=${s.target}`]);
    const sidecar = { name: "logger", image: "busybox:1.36", args: ["tail", "-f", "/dev/null"] };
    const patch = [{ op: "add", path: "/spec/template/spec/containers/-", value: sidecar }];
    await kubectl([...ns, "patch", "deploy/web", "--type=json", "-p", JSON.stringify(patch)]);

    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("codified 2 objects, 0 not codified");
    expect(read(s, "manifests/deployment-worker.yaml")).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
  labels:
    app: worker
spec:
  replicas: 2
  selector:
    matchLabels:
      app: worker
  template:
    metadata:
      labels:
        app: worker
    spec:
      containers:
        - name: busybox
          image: busybox:1.36
`);
    expect(read(s, "manifests/web.yaml")).toBe(
      web.replace(
        "              memory: 128Mi\n",
        "              memory: 128Mi\n        - name: logger\n          image: busybox:1.36\n          args:\n            - tail\n            - -f\n            - /dev/null\n",
      ),
    );
    const after = await s.scanReport();
    expect(after.report.summary).toMatchObject({ drifted: 0, missing: 0, orphaned: 0 });
  });
});

describe("undrift codify: objects being deleted", () => {
  it("writes neither an orphan nor the drift of an object held by a finalizer while it is deleted, and says why", async () => {
    current = scenario({ files: { "manifests/config.yaml": config } });
    const s = current;
    await s.applyGit();
    const ns = ["-n", s.namespace];
    const held = `apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  labels: {undrift.dev/target: ${s.target}}
  finalizers: [example.com/hold]
data:
  owner: alice
`;
    const release = (name: string) =>
      kubectl([...ns, "patch", "configmap", name, "--type=merge", "-p", '{"metadata":{"finalizers":null}}']);
    await kubectl([...ns, "apply", "-f", "-"], held);
    const hold = { metadata: { finalizers: ["example.com/hold"] }, data: { LOG_LEVEL: "debug" } };
    await kubectl([...ns, "patch", "configmap", "app-config", "--type=merge", "-p", JSON.stringify(hold)]);
    try {
      await kubectl([...ns, "delete", "configmap", "held", "app-config", "--wait=false"]);
      const scanned = await s.scanReport();
      expect(scanned.report.summary).toMatchObject({ drifted: 1, orphaned: 1 });

      const result = await codify(s);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("codified 0 objects, 2 not codified");
      for (const name of ["app-config", "held"]) {
        expect(result.stdout).toMatch(
          new RegExp(
            `v1 ConfigMap ${s.namespace}/${name}: not codified: being deleted \\(deletionTimestamp \\S+, held by finalizer example\\.com/hold\\); codify waits until it is gone`,
          ),
        );
      }
      expect(existsSync(join(s.repoDir, "manifests/configmap-held.yaml"))).toBe(false);
      expect(read(s, "manifests/config.yaml")).toBe(config);
    } finally {
      // The finalizer would hold the objects, and the namespace with them, for good.
      await release("held");
      await release("app-config");
    }
  });
});
