// undrift codify on kustomize overlays with the real kustomize binary: a value
// an overlay patch sets is codified in that patch, an image tag in `images:`,
// a base field as an overlay patch (the shared base is never edited), the
// overlay's own files in place; deletions and strays follow `resources:`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clusterWhereOf, kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const base = {
  "base/kustomization.yaml": "# Shared by every environment.\nresources:\n  - deployment.yaml\n  - service.yaml\n",
  "base/deployment.yaml": `# The web tier, as every environment runs it.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.25
          env:
            - name: LOG_LEVEL
              value: info
`,
  "base/service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - port: 80
`,
};

const overlay = {
  "overlays/prod/kustomization.yaml": `# Production: more replicas, a newer image.
namePrefix: prod-
resources:
  - ../../base
  - settings.yaml # the overlay's own objects
patches:
  - path: replicas.yaml
images:
  - name: nginx
    newTag: "1.27" # bumped by the release bot
`,
  "overlays/prod/replicas.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # production load
`,
  "overlays/prod/settings.yaml": `# Settings only production has.
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  REGION: eu # where it runs
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
data:
  BETA: "false"
`,
};

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

async function overlayScenario(): Promise<Scenario> {
  current = scenario({ target: { path: "overlays/prod", render: "auto" }, files: { ...base, ...overlay } });
  await current.applyGit();
  return current;
}

function codify(s: Scenario, extra: string[] = []) {
  return undrift(["codify", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), ...extra]);
}

const read = (s: Scenario, file: string) => readFileSync(join(s.repoDir, file), "utf8");

describe("undrift codify: kustomize", () => {
  it("codifies a patched value in the overlay's patch, an image tag in images:, a base field as an overlay patch", async () => {
    const s = await overlayScenario();
    const ns = ["-n", s.namespace];
    await kubectl([...ns, "scale", "deploy/prod-web", "--replicas=5"]);
    await kubectl([...ns, "set", "image", "deploy/prod-web", "web=nginx:1.28"]);
    await kubectl([...ns, "set", "env", "deploy/prod-web", "DEBUG=1"]);
    await kubectl([...ns, "annotate", "service/prod-web", "team=shop"]);
    await kubectl([...ns, "patch", "configmap", "prod-settings", "-p", '{"data":{"REGION":"us"}}']);

    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("codified 3 objects, 0 not codified");
    expect(result.code).toBe(0);

    for (const file of Object.keys(base)) expect(read(s, file)).toBe(base[file as keyof typeof base]);
    expect(read(s, "overlays/prod/replicas.yaml")).toBe(
      overlay["overlays/prod/replicas.yaml"].replace("replicas: 3", "replicas: 5"),
    );
    expect(read(s, "overlays/prod/settings.yaml")).toBe(
      overlay["overlays/prod/settings.yaml"].replace("REGION: eu", "REGION: us"),
    );
    expect(read(s, "overlays/prod/kustomization.yaml")).toBe(
      overlay["overlays/prod/kustomization.yaml"]
        .replace('newTag: "1.27"', 'newTag: "1.28"')
        .replace(
          "  - path: replicas.yaml\n",
          "  - path: replicas.yaml\n  - path: undrift-patches/service-web.yaml\n  - path: undrift-patches/deployment-web.yaml\n",
        ),
    );
    expect(read(s, "overlays/prod/undrift-patches/deployment-web.yaml")).toBe(
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          env:
            - name: DEBUG
              value: "1"
`,
    );
    expect(read(s, "overlays/prod/undrift-patches/service-web.yaml")).toBe(
      "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations:\n    team: shop\n",
    );

    const after = await s.scanReport();
    expect(after.report.summary).toMatchObject({ drifted: 0, missing: 0, orphaned: 0 });
    expect(after.code).toBe(0);
  });

  it("removes deleted overlay objects with their emptied file and resources entry, deletes a base object by patch, adds a stray", async () => {
    const s = await overlayScenario();
    const ns = ["-n", s.namespace];
    await kubectl([...ns, "delete", "configmap", "prod-flags", "prod-settings"]);
    await kubectl([...ns, "delete", "service", "prod-web"]);
    await kubectl([...ns, "create", "configmap", "prod-extra", "--from-literal=owner=alice"]);
    await kubectl([...ns, "label", "configmap", "prod-extra", `undrift.dev/target=${s.target}`]);

    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("codified 4 objects, 0 not codified");

    for (const file of Object.keys(base)) expect(read(s, file)).toBe(base[file as keyof typeof base]);
    expect(existsSync(join(s.repoDir, "overlays/prod/settings.yaml"))).toBe(false);
    expect(read(s, "overlays/prod/undrift-patches/delete-service-web.yaml")).toBe(
      "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n$patch: delete\n",
    );
    expect(read(s, "overlays/prod/configmap-extra.yaml")).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  owner: alice\n",
    );
    expect(read(s, "overlays/prod/kustomization.yaml")).toBe(
      overlay["overlays/prod/kustomization.yaml"]
        .replace("  - settings.yaml # the overlay's own objects\n", "  - configmap-extra.yaml\n")
        .replace(
          "  - path: replicas.yaml\n",
          "  - path: replicas.yaml\n  - path: undrift-patches/delete-service-web.yaml\n",
        ),
    );

    const after = await s.scanReport();
    expect(after.report.summary).toMatchObject({ drifted: 0, missing: 0, orphaned: 0 });
    expect(after.code).toBe(0);
  });

  it("codifies a replica count in the kustomization's replicas: entry, and a second run finds nothing to do", async () => {
    current = scenario({
      target: { path: "overlays/prod", render: "auto" },
      files: {
        ...base,
        "overlays/prod/kustomization.yaml":
          "resources:\n  - ../../base\nreplicas:\n  - name: web\n    count: 2 # two zones\n",
      },
    });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deploy/web", "--replicas=6"]);

    const first = await codify(s);
    expect(first.stdout).toContain(`apps/v1 Deployment ${s.namespace}/web: edited overlays/prod/kustomization.yaml`);
    expect(read(s, "overlays/prod/kustomization.yaml")).toBe(
      "resources:\n  - ../../base\nreplicas:\n  - name: web\n    count: 6 # two zones\n",
    );
    const second = await codify(s);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      `target ${s.target}: nothing to codify, Git declares what the cluster runs${clusterWhereOf()}\n`,
    );
  });
});
