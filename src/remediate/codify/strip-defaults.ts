// Values the API server fills in when an object is created, removed from a
// manifest codify writes. managedFields cannot tell them apart for objects
// made with `kubectl create` (an Update operation credits its manager with
// every defaulted field), so the well-known defaults of built-in kinds are
// listed here, as kubectl-neat does. A field is dropped only when it equals
// its default exactly: a default that changes upstream leaves a field in, never out.
import { deepEqual, diffValues } from "../../drift/diff-values.ts";
import type { FieldPath } from "../../drift/field-path.ts";
import { isBuiltinGroup, ListShapes } from "../../drift/list-shapes.ts";

type Json = unknown;
type Map = Record<string, Json>;
const isRecord = (v: Json): v is Map => typeof v === "object" && v !== null && !Array.isArray(v);

const podSpec: Map = {
  dnsPolicy: "ClusterFirst",
  restartPolicy: "Always",
  schedulerName: "default-scheduler",
  terminationGracePeriodSeconds: 30,
  enableServiceLinks: true,
  securityContext: {},
};
const container: Map = {
  terminationMessagePath: "/dev/termination-log",
  terminationMessagePolicy: "File",
  resources: {},
};
const rollingUpdate = (rollingUpdate: Map) => ({ type: "RollingUpdate", rollingUpdate });
const workloadSpec: Record<string, Map> = {
  Deployment: {
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 10,
    strategy: rollingUpdate({ maxSurge: "25%", maxUnavailable: "25%" }),
  },
  StatefulSet: {
    podManagementPolicy: "OrderedReady",
    revisionHistoryLimit: 10,
    updateStrategy: rollingUpdate({ partition: 0 }),
    persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
  },
  DaemonSet: { revisionHistoryLimit: 10, updateStrategy: rollingUpdate({ maxSurge: 0, maxUnavailable: 1 }) },
  CronJob: { concurrencyPolicy: "Allow", failedJobsHistoryLimit: 1, successfulJobsHistoryLimit: 3, suspend: false },
  Service: {
    sessionAffinity: "None",
    type: "ClusterIP",
    internalTrafficPolicy: "Cluster",
    ipFamilyPolicy: "SingleStack",
  },
};
const containerLists = new Set(["containers", "initContainers", "ephemeralContainers"]);

/** A value left out of a manifest as the server's default, at its path in the object. */
export interface AssumedDefault {
  path: FieldPath;
  value: unknown;
}

/**
 * A copy of `object` (a whole object of `kind`, or a part of one placed at its path) without server defaults,
 * and what was left out: the proof must not count those as drift (the next scan checks them with the server).
 */
export function stripDefaults(params: { object: Json; kind: string; group: string }): {
  object: Json;
  removed: AssumedDefault[];
} {
  const copy = strip(params);
  const context = {
    shapes: new ListShapes({ ownership: [], builtin: true }),
    sameScalar: (_: FieldPath, a: unknown, b: unknown) => a === b,
  };
  const removed = diffValues(params.object, copy, context)
    .filter((d) => d.b === undefined)
    .map((d) => ({ path: d.path, value: d.a }));
  return { object: copy, removed };
}

function strip(params: { object: Json; kind: string; group: string }): Json {
  const copy = JSON.parse(JSON.stringify(params.object ?? null)) as Json;
  if (!isBuiltinGroup(params.group)) return copy;
  const spec = isRecord(copy) ? copy.spec : undefined;
  if (isRecord(spec)) {
    drop(spec, workloadSpec[params.kind] ?? {});
    if (params.kind === "Service") stripService(spec);
  }
  walk(copy, "");
  return copy;
}

function walk(value: Json, key: string): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isRecord(item) && containerLists.has(key)) stripContainer(item);
      walk(item, "");
    }
    return;
  }
  if (!isRecord(value)) return;
  if (Array.isArray(value.containers)) drop(value, podSpec);
  for (const [name, child] of Object.entries(value)) walk(child, name);
}

function stripContainer(item: Map): void {
  drop(item, container);
  if (typeof item.image === "string" && item.imagePullPolicy === defaultPullPolicy(item.image))
    delete item.imagePullPolicy;
  for (const port of Array.isArray(item.ports) ? item.ports : [])
    if (isRecord(port) && port.protocol === "TCP") delete port.protocol;
}

/** Always for `:latest` or no tag, else IfNotPresent. */
function defaultPullPolicy(image: string): string {
  if (image.includes("@")) return "IfNotPresent";
  const tag = /:([^/:]+)$/.exec(image)?.[1];
  return tag === undefined || tag === "latest" ? "Always" : "IfNotPresent";
}

function stripService(spec: Map): void {
  // Allocated by the cluster; a headless Service's "None" is configuration.
  if (spec.clusterIP !== "None") {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length === 1) delete spec.ipFamilies;
  for (const port of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!isRecord(port)) continue;
    if (port.protocol === "TCP") delete port.protocol;
    if (port.targetPort === port.port) delete port.targetPort;
  }
}

function drop(map: Map, defaults: Map): void {
  for (const [name, value] of Object.entries(defaults))
    if (name in map && deepEqual(map[name], value)) delete map[name];
}
