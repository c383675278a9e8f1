// The variables of a Kustomization's `spec.postBuild`, read from the cluster
// at scan time as kustomize-controller reads them (fluxcd/pkg/kustomize
// LoadVariables and SubstituteVariables): each substituteFrom ConfigMap's
// `data` and Secret's `data` (base64-decoded) in list order, a later one
// over an earlier one, then the inline `substitute` over them all; newlines
// are removed from every value. A missing `optional` object defines nothing;
// a missing required one, or one undrift may not read, fails the target.
//
// Every stage that renders a Kustomization target calls this once and hands
// the result to the render; the values go nowhere else.
import type { PostBuild } from "../config/target-origin.ts";
import type { PostBuildVariables } from "../desired/post-build/substitute-objects.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";

/** A substituteFrom object could not be read: its message names the Kustomization and the field, never a value. */
export class PostBuildVariablesError extends UndriftError {
  override name = "PostBuildVariablesError";
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent;
  }
}

/** The variables `postBuild` defines on the cluster `client` reaches; undefined without postBuild. */
export async function readPostBuildVariables(params: {
  client: KubeClient;
  postBuild: PostBuild | undefined;
}): Promise<PostBuildVariables | undefined> {
  const { client, postBuild } = params;
  if (!postBuild) return undefined;
  const [namespace] = postBuild.kustomization.split("/");
  const values: Record<string, string> = {};
  const from: Record<string, string> = {};
  const secret = new Set<string>();
  for (const [index, ref] of postBuild.substituteFrom.entries()) {
    const field = `spec.postBuild.substituteFrom[${index}]`;
    const plural = ref.kind === "Secret" ? "secrets" : "configmaps";
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace!)}/${plural}/${encodeURIComponent(ref.name)}`;
    let object: { data?: Record<string, string> | null };
    try {
      object = await client.send({ method: "GET", path });
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404 && ref.optional) continue;
      const why =
        error instanceof KubeApiError ? (error.status === 404 ? "not found" : error.refusal) : (error as Error).message;
      throw new PostBuildVariablesError(
        `Kustomization ${postBuild.kustomization}: ${field}: ${ref.kind} ${namespace}/${ref.name}: ${why}`,
        // A 404 or 403 answers the same next time; an unreachable cluster or a 5xx may not.
        { permanent: error instanceof KubeApiError ? error.permanent : false, cause: error },
      );
    }
    for (const [key, value] of Object.entries(object.data ?? {})) {
      const text = ref.kind === "Secret" ? Buffer.from(value, "base64").toString("utf8") : value;
      values[key] = text.replaceAll("\n", "");
      from[key] = `${field} (${ref.kind} ${ref.name})`;
      if (ref.kind === "Secret") secret.add(key);
      else secret.delete(key);
    }
  }
  for (const [key, value] of Object.entries(postBuild.substitute)) {
    values[key] = value.replaceAll("\n", "");
    from[key] = "spec.postBuild.substitute";
    secret.delete(key);
  }
  return { values, from, secret: [...secret] };
}
