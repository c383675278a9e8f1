// How to match the items of a list: by key fields (containers by name, ports by
// containerPort and protocol), as a set, or as one atomic value. Live
// managedFields tell the shape of every list a manager touched (`k:`/`v:`
// tokens); for the rest, the merge keys Kubernetes declares for built-in kinds.
import { type FieldPath, pathKey } from "./field-path.ts";
import type { Ownership } from "./managed-fields.ts";

export type ListShape = { type: "map"; keys: string[] } | { type: "set" } | { type: "atomic" };

// x-kubernetes-list-map-keys of built-in types, by the list's field name.
const builtinKeys: Record<string, string[]> = {
  containers: ["name"],
  initContainers: ["name"],
  ephemeralContainers: ["name"],
  env: ["name"],
  volumes: ["name"],
  volumeMounts: ["mountPath"],
  volumeDevices: ["devicePath"],
  imagePullSecrets: ["name"],
  hostAliases: ["ip"],
  resourceClaims: ["name"],
  topologySpreadConstraints: ["topologyKey", "whenUnsatisfiable"],
  ownerReferences: ["uid"],
  conditions: ["type"],
};
const containerLists = new Set(["f:containers", "f:initContainers", "f:ephemeralContainers"]);

/** True for groups whose kinds are Kubernetes' own (their merge keys and quantities are known). */
export function isBuiltinGroup(group: string): boolean {
  return group === "" || !group.includes(".") || group.endsWith(".k8s.io");
}

export class ListShapes {
  private readonly sources: Ownership[];
  private readonly builtin: boolean;

  constructor(params: { ownership: Ownership[]; builtin: boolean }) {
    this.sources = params.ownership;
    this.builtin = params.builtin;
  }

  shapeOf(path: FieldPath): ListShape {
    const key = pathKey(path);
    for (const o of this.sources) {
      const keys = o.listKeys.get(key);
      if (keys) return { type: "map", keys };
      if (o.setLists.has(key)) return { type: "set" };
    }
    if (!this.builtin) return { type: "atomic" };
    const name = path.at(-1)?.slice(2) ?? "";
    if (name === "ports") {
      // Container ports are keyed by containerPort+protocol, Service ports by port+protocol.
      const inContainer = path.some((t) => containerLists.has(t));
      return { type: "map", keys: inContainer ? ["containerPort", "protocol"] : ["port", "protocol"] };
    }
    if (name === "finalizers") return { type: "set" };
    const keys = builtinKeys[name];
    return keys ? { type: "map", keys } : { type: "atomic" };
  }
}
