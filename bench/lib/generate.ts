// Generates the benchmark's GitOps repository: N small, realistic manifests
// (ConfigMap + Deployment + Service per app, with comments) across 20 fresh
// namespaces, the Namespace objects themselves, and `.github/undrift.yml` with
// one plain target. Every object carries the tracking label in its file, so
// `kubectl diff -f` of the same folder sees what undrift sees. Services are
// headless: the test cluster's Service range is a /24, too small for
// thousands of ClusterIPs.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const namespaceCount = 20;
export const trackingKey = "undrift.dev/target";

export type BenchKind = "ConfigMap" | "Deployment" | "Service" | "Namespace";

/** One generated object, as written to its file. */
export interface BenchObject {
  apiVersion: string;
  kind: BenchKind;
  namespace?: string;
  name: string;
  /** The manifest as plain JSON, for the untimed server-side apply. */
  manifest: Record<string, unknown> & { metadata: { name: string; namespace?: string } };
  /** Its file, relative to the manifests folder, and its document there (0-based). */
  file?: string;
  document?: number;
}

export interface BenchRepo {
  dir: string;
  /** Folder of the target, relative to `dir`. */
  targetPath: string;
  /** Absolute folder of the manifests, what `kubectl diff -f` gets. */
  manifestsDir: string;
  target: string;
  namespaces: string[];
  /** The N ConfigMaps, Deployments and Services (Namespaces not included). */
  objects: BenchObject[];
  namespaceObjects: BenchObject[];
  /** Apps written (app-0000 ...); the next new app is app number `apps`. */
  apps: number;
}

const teams = ["payments", "search", "checkout", "identity", "platform"];
const logLevels = ["info", "warn"];
const cpuRequests = ["100m", "0.25", "50m", "0.5"]; // "0.25" and "0.5" are stored as 250m/500m
const memoryRequests = ["64Mi", "128Mi", "96Mi"];
const images = ["nginx:1.27", "ghcr.io/acme/api:2.4.1", "registry.k8s.io/pause:3.10"];

/** A run id: lowercase letters and digits, safe in names and labels. */
export function runId(): string {
  return randomBytes(4).toString("hex");
}

function configMap(app: string, ns: string, target: string, i: number): [string, BenchObject] {
  const level = logLevels[i % logLevels.length]!;
  const team = teams[i % teams.length]!;
  const yaml = `# Settings of ${app}; read at start-up, so a change here needs a rollout.
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${app}-config
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${app}
    app.kubernetes.io/part-of: ${team}
    ${trackingKey}: ${target}
data:
  LOG_LEVEL: ${level} # raise to debug only while investigating
  FEATURES: "search,cart,wishlist"
  PORT: "8080"
  # The Java-style file the service reads besides the environment.
  app.properties: |
    server.port=8080
    cache.ttl=300
    upstream.timeout=5s
`;
  const manifest = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `${app}-config`,
      namespace: ns,
      labels: { "app.kubernetes.io/name": app, "app.kubernetes.io/part-of": team, [trackingKey]: target },
    },
    data: {
      LOG_LEVEL: level,
      FEATURES: "search,cart,wishlist",
      PORT: "8080",
      "app.properties": "server.port=8080\ncache.ttl=300\nupstream.timeout=5s\n",
    },
  };
  return [yaml, { apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: `${app}-config`, manifest }];
}

function deployment(app: string, ns: string, target: string, i: number): [string, BenchObject] {
  const level = logLevels[i % logLevels.length]!;
  const team = teams[i % teams.length]!;
  const cpu = cpuRequests[i % cpuRequests.length]!;
  const memory = memoryRequests[i % memoryRequests.length]!;
  const image = images[i % images.length]!;
  const replicas = 1 + (i % 3);
  const yaml = `# ${app}: stateless, scaled by hand through this file (no autoscaler).
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${app}
    app.kubernetes.io/part-of: ${team}
    ${trackingKey}: ${target}
  annotations:
    acme.dev/team: ${team} # who gets paged
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app.kubernetes.io/name: ${app}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${app}
    spec:
      containers:
        - name: app
          image: ${image} # pinned; bump through a PR
          ports:
            - name: http
              containerPort: 8080
          env:
            - name: LOG_LEVEL
              value: ${level}
            - name: CONFIG_FILE
              value: /etc/app/app.properties
          resources:
            requests:
              cpu: "${cpu}"
              memory: ${memory}
          readinessProbe:
            httpGet:
              path: /healthz
              port: http
`;
  const manifest = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: app,
      namespace: ns,
      labels: { "app.kubernetes.io/name": app, "app.kubernetes.io/part-of": team, [trackingKey]: target },
      annotations: { "acme.dev/team": team },
    },
    spec: {
      replicas,
      selector: { matchLabels: { "app.kubernetes.io/name": app } },
      template: {
        metadata: { labels: { "app.kubernetes.io/name": app } },
        spec: {
          containers: [
            {
              name: "app",
              image,
              ports: [{ name: "http", containerPort: 8080 }],
              env: [
                { name: "LOG_LEVEL", value: level },
                { name: "CONFIG_FILE", value: "/etc/app/app.properties" },
              ],
              resources: { requests: { cpu, memory } },
              readinessProbe: { httpGet: { path: "/healthz", port: "http" } },
            },
          ],
        },
      },
    },
  };
  return [yaml, { apiVersion: "apps/v1", kind: "Deployment", namespace: ns, name: app, manifest }];
}

function service(app: string, ns: string, target: string, i: number): [string, BenchObject] {
  const team = teams[i % teams.length]!;
  const yaml = `# In-cluster address of ${app}.
apiVersion: v1
kind: Service
metadata:
  name: ${app}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${app}
    app.kubernetes.io/part-of: ${team}
    tier: backend
    ${trackingKey}: ${target}
spec:
  clusterIP: None # headless: clients resolve the pods directly
  selector:
    app.kubernetes.io/name: ${app}
  ports:
    - name: http
      port: 80
      targetPort: http # the container's named port
`;
  const manifest = {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: app,
      namespace: ns,
      labels: {
        "app.kubernetes.io/name": app,
        "app.kubernetes.io/part-of": team,
        tier: "backend",
        [trackingKey]: target,
      },
    },
    spec: {
      clusterIP: "None",
      selector: { "app.kubernetes.io/name": app },
      ports: [{ name: "http", port: 80, targetPort: "http" }],
    },
  };
  return [yaml, { apiVersion: "v1", kind: "Service", namespace: ns, name: app, manifest }];
}

/** Writes the repository under `dir` for `n` objects (plus the 20 Namespaces). */
export async function generateRepo(params: {
  dir: string;
  n: number;
  id: string;
  /** The target's `prune` setting (default: unset, that is false). */
  prune?: boolean;
}): Promise<BenchRepo> {
  const { dir, n, id } = params;
  const target = `bench-${id}`;
  const targetPath = "clusters/bench";
  const manifestsDir = join(dir, targetPath);
  const namespaces = Array.from({ length: namespaceCount }, (_, i) => `bench-${id}-${String(i).padStart(2, "0")}`);

  await mkdir(join(dir, ".github"), { recursive: true });
  await writeFile(
    join(dir, ".github/undrift.yml"),
    `# Generated by the benchmark (bench/): ${n} objects in ${namespaceCount} namespaces.
schedule: 15m
targets:
  - name: ${target}
    cluster: bench
    path: ${targetPath}
    render: plain
    namespace: ${namespaces[0]}
    mode: warn
${params.prune === undefined ? "" : `    prune: ${params.prune}\n`}`,
  );

  // The namespaces, in one file, as a platform team would keep them.
  await mkdir(manifestsDir, { recursive: true });
  const namespaceObjects: BenchObject[] = namespaces.map((ns) => ({
    apiVersion: "v1",
    kind: "Namespace",
    name: ns,
    manifest: { apiVersion: "v1", kind: "Namespace", metadata: { name: ns, labels: { [trackingKey]: target } } },
  }));
  await writeFile(
    join(manifestsDir, "namespaces.yaml"),
    `# Namespaces of the benchmark's apps; created before anything inside them.\n${namespaces
      .map(
        (ns) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n  labels:\n    ${trackingKey}: ${target}\n`,
      )
      .join("---\n")}`,
  );

  // One file per app: its ConfigMap, Deployment and Service, until there are n objects.
  const objects: BenchObject[] = [];
  let app = 0;
  for (; objects.length < n; app++) {
    const docs = await writeApp({ manifestsDir, namespaces, target, app, count: n - objects.length });
    objects.push(...docs);
  }
  return { dir, targetPath, manifestsDir, target, namespaces, objects, namespaceObjects, apps: app };
}

/**
 * Writes app number `app` to `<namespace>/app-NNNN.yaml`: its ConfigMap,
 * Deployment and Service, or the first `count` of them. Returns what it wrote.
 */
export async function writeApp(params: {
  manifestsDir: string;
  namespaces: string[];
  target: string;
  app: number;
  count?: number;
}): Promise<BenchObject[]> {
  const { manifestsDir, namespaces, target, app } = params;
  const ns = namespaces[app % namespaces.length]!;
  const name = `app-${String(app).padStart(4, "0")}`;
  const file = `${ns}/${name}.yaml`;
  const made = [configMap, deployment, service].slice(0, params.count ?? 3).map((make, document) => {
    const [yaml, object] = make(name, ns, target, app);
    return [yaml, { ...object, file, document }] as const;
  });
  await mkdir(join(manifestsDir, ns), { recursive: true });
  await writeFile(join(manifestsDir, file), made.map(([yaml]) => yaml).join("---\n"));
  return made.map(([, object]) => object);
}

/** `Kind namespace/name`, the key the benchmark compares sets by. */
export function keyOf(o: { kind: string; namespace?: string; name: string }): string {
  return `${o.kind} ${o.namespace ? `${o.namespace}/` : ""}${o.name}`;
}
