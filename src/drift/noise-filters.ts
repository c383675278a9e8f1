// Built-in noise: fields that tools write as a side effect and that no reviewer
// wants to see as drift. Each can be switched off per target (`noiseFilters`).

export interface NoiseFilter {
  name: string;
  /** JSON pointer of the field dropped from both sides before comparing. */
  pointer: string;
  /** The only kind it applies to, when the field is noise on that kind alone. */
  kind?: string;
  why: string;
}

export const noiseFilters: NoiseFilter[] = [
  {
    name: "kubectl-restarted-at",
    pointer: "/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt",
    why: "`kubectl rollout restart` stamps it to roll pods; the workload's spec is unchanged",
  },
  {
    name: "deployment-revision",
    pointer: "/metadata/annotations/deployment.kubernetes.io~1revision",
    why: "the Deployment controller counts rollouts here",
  },
  {
    name: "last-applied-configuration",
    pointer: "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration",
    why: "client-side `kubectl apply` bookkeeping, a copy of the manifest",
  },
  {
    name: "change-cause",
    pointer: "/metadata/annotations/kubernetes.io~1change-cause",
    why: "`kubectl --record` history, not configuration",
  },
  {
    name: "namespace-name-label",
    pointer: "/metadata/labels/kubernetes.io~1metadata.name",
    kind: "Namespace",
    why: "the API server sets it to the name on every Namespace, whoever creates it",
  },
];

/** Whether a filter applies to an object of this kind. */
export function filtersKind(filter: NoiseFilter, kind: string): boolean {
  return filter.kind === undefined || filter.kind === kind;
}

/** The filters in force: all built-ins but those a target switched off. */
export function enabledNoiseFilters(switches: Record<string, boolean> | undefined): NoiseFilter[] {
  return noiseFilters.filter((f) => switches?.[f.name] !== false);
}
