// A Flux Kustomization as an undrift target, with the settings the object
// implies (kustomize-controller v1 API): its path in the source, the overlays
// kustomize-controller generates onto that path (targetNamespace, namePrefix,
// nameSuffix, patches, images, components), the metadata it sets when it
// applies (commonMetadata, and its kustomize.toolkit.fluxcd.io/name and
// /namespace labels, which are also how it finds what it owns), its
// post-build substitutions (as references: the values are read at scan time),
// its field manager, prune and force. Pure: the objects are read elsewhere.
import type { DiscoverEntry } from "../config/discover-schema.ts";
import { normalizeRepoPath } from "../config/normalize-repo-path.ts";
import type { TargetConfig } from "../config/schema.ts";
import type {
  FluxRender,
  KustomizeImage,
  KustomizePatch,
  PostBuild,
  SubstituteReference,
} from "../config/target-origin.ts";
import { targetSchema } from "../config/target-schema.ts";
import type { KubeObject } from "../model/types.ts";
import { isSameRepository, type RepositoryIdentity } from "./source-url.ts";

/** kustomize-controller's ownership labels, set on every object it applies. */
export const FLUX_NAME_LABEL = "kustomize.toolkit.fluxcd.io/name";
export const FLUX_NAMESPACE_LABEL = "kustomize.toolkit.fluxcd.io/namespace";
/** The field manager kustomize-controller applies with. */
export const FLUX_FIELD_MANAGER = "kustomize-controller";

/** A discovered target, or why the object is not one (another repository is no reason to say anything). */
export type Discovered =
  | { ok: true; target: TargetConfig }
  | { ok: false; otherSource: true }
  | { ok: false; otherSource: false; problem: string };

type Spec = Record<string, unknown>;

/**
 * The target `kustomization` implies, when its source is a GitRepository of `repository`; `sources` are the
 * GitRepositories read from the same cluster, by namespace/name.
 */
export function fluxKustomizationTarget(params: {
  kustomization: KubeObject;
  sources: ReadonlyMap<string, KubeObject>;
  repository: RepositoryIdentity;
  entry: DiscoverEntry;
  name: string;
}): Discovered {
  const { kustomization, entry } = params;
  const { namespace = "", name } = kustomization.metadata;
  const spec = (kustomization.spec ?? {}) as Spec;
  const where = `Kustomization ${namespace}/${name}`;
  const ref = (spec.sourceRef ?? {}) as { kind?: string; name?: string; namespace?: string };
  if (ref.kind !== "GitRepository") return { ok: false, otherSource: true };
  const source = params.sources.get(`${ref.namespace ?? namespace}/${ref.name ?? ""}`);
  const url = (source?.spec as Spec | undefined)?.url;
  if (typeof url !== "string" || !isSameRepository(url, params.repository)) return { ok: false, otherSource: true };

  const postBuild = postBuildOf(spec, `${namespace}/${name}`);
  if (typeof postBuild === "string") return { ok: false, otherSource: false, problem: `${where}: ${postBuild}` };
  // Flux joins the path under the source's root whether or not it starts with a slash.
  const path = normalizeRepoPath(String(spec.path ?? ".").replace(/^\/+/, "") || ".");
  if (!path.ok) return { ok: false, otherSource: false, problem: `${where}: spec.path: ${path.problem}` };
  const status = (kustomization.status ?? {}) as Spec;
  const parsed = targetSchema.safeParse({
    name: params.name,
    cluster: entry.cluster,
    path: path.path,
    render: "kustomize",
    ...(typeof spec.targetNamespace === "string" ? { namespace: spec.targetNamespace } : {}),
    mode: entry.mode,
    prune: entry.prune ?? (spec.prune === true ? "preview" : false),
    force: spec.force === true,
    fieldManager: FLUX_FIELD_MANAGER,
    tracking: { selector: `${FLUX_NAME_LABEL}=${name},${FLUX_NAMESPACE_LABEL}=${namespace}` },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, otherSource: false, problem: `${where}: ${issue?.path.join(".")}: ${issue?.message}` };
  }
  return {
    ok: true,
    target: {
      ...parsed.data,
      origin: {
        from: "flux",
        kind: "Kustomization",
        namespace,
        name,
        ...(spec.suspend === true ? { suspended: true } : {}),
        ...(typeof status.lastAppliedRevision === "string" ? { lastAppliedRevision: status.lastAppliedRevision } : {}),
      },
      flux: {
        ...fluxRender(spec, { [FLUX_NAME_LABEL]: name, [FLUX_NAMESPACE_LABEL]: namespace }),
        ...(postBuild ? { postBuild } : {}),
      },
    },
  };
}

/** What kustomize-controller adds to the build of `spec.path`. */
function fluxRender(spec: Spec, ownLabels: Record<string, string>): FluxRender {
  const common = (spec.commonMetadata ?? {}) as { labels?: unknown; annotations?: unknown };
  const strings = (value: unknown): Record<string, string> =>
    Object.fromEntries(
      Object.entries(typeof value === "object" && value !== null ? value : {}).filter(
        (pair): pair is [string, string] => typeof pair[1] === "string",
      ),
    );
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  const targetNamespace = text(spec.targetNamespace);
  const namePrefix = text(spec.namePrefix);
  const nameSuffix = text(spec.nameSuffix);
  return {
    ...(targetNamespace ? { targetNamespace } : {}),
    ...(namePrefix ? { namePrefix } : {}),
    ...(nameSuffix ? { nameSuffix } : {}),
    patches: list(spec.patches).flatMap((p): KustomizePatch[] => {
      const { patch, target } = p as { patch?: unknown; target?: unknown };
      if (typeof patch !== "string") return [];
      const selector = strings(target);
      return [{ patch, ...(Object.keys(selector).length > 0 ? { target: selector } : {}) }];
    }),
    images: list(spec.images).flatMap((i): KustomizeImage[] => {
      const image = strings(i);
      if (!image.name) return [];
      return [{ ...image, name: image.name }];
    }),
    components: list(spec.components).filter((c): c is string => typeof c === "string"),
    ignoreMissingComponents: spec.ignoreMissingComponents === true,
    // The controller's own labels last: commonMetadata cannot take them over (it sets them after, as here).
    metadata: { labels: { ...strings(common.labels), ...ownLabels }, annotations: strings(common.annotations) },
  };
}

/**
 * `spec.postBuild` as references (the values are read at scan time), undefined when absent, or what is wrong
 * with it. kustomize-controller substitutes whenever the field is there, even empty.
 */
function postBuildOf(spec: Spec, kustomization: string): PostBuild | undefined | string {
  if (spec.postBuild === undefined || spec.postBuild === null) return undefined;
  const postBuild = spec.postBuild as { substitute?: unknown; substituteFrom?: unknown; substituteStrategy?: unknown };
  const substitute: Record<string, string> = {};
  for (const [key, value] of Object.entries((postBuild.substitute ?? {}) as Record<string, unknown>)) {
    if (typeof value !== "string") return `spec.postBuild.substitute.${key}: not a string`;
    substitute[key] = value;
  }
  const substituteFrom: SubstituteReference[] = [];
  for (const [index, entry] of list(postBuild.substituteFrom).entries()) {
    const { kind, name, optional } = (entry ?? {}) as { kind?: unknown; name?: unknown; optional?: unknown };
    if ((kind !== "ConfigMap" && kind !== "Secret") || typeof name !== "string" || name === "") {
      return `spec.postBuild.substituteFrom[${index}]: kind must be ConfigMap or Secret, with a name`;
    }
    substituteFrom.push({ kind, name, optional: optional === true });
  }
  return { kustomization, substitute, substituteFrom, always: postBuild.substituteStrategy === "Always" };
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
