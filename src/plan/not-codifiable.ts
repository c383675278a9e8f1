// The drift codify leaves alone whatever an edit of Git could be, and why:
// one pure decision that the codify stage (CLI and app) and the dashboard read.
import type { Renderer } from "../desired/render-target.ts";
import { finalizersOf } from "../model/finalizers-of.ts";
import { isSecret } from "../model/is-secret.ts";
import type { ObjectMeta } from "../model/types.ts";

/** Why codify never handles this object, or undefined when it may; `live` is the cluster's object, when there is one. */
export function notCodifiable(params: {
  object: { apiVersion: string; kind: string };
  live?: { metadata: ObjectMeta };
  renderer: Renderer;
  /** Fields of the desired object hold Secret data substituted by Flux (DesiredObject.sensitive). */
  sensitive?: boolean;
}): string | undefined {
  const deleting = beingDeleted(params.live);
  if (deleting) return deleting;
  if (isSecret(params.object)) return "Secret values stay out of Git";
  // An edit would write the live value, the Secret's data, in place of the `${var}` Git holds.
  if (params.sensitive) return "it holds a Flux post-build variable from a Secret, and Secret values stay out of Git";
  if (params.renderer === "helm") return "helm output is diffed and reverted, not codified";
  return undefined;
}

/**
 * An object with a deletionTimestamp is going away (a finalizer may hold it for a while): neither it, as an orphan,
 * nor its drifted fields belong in Git, which would otherwise declare what the cluster is removing, finalizer and all.
 */
function beingDeleted(live: { metadata: ObjectMeta } | undefined): string | undefined {
  const since = live?.metadata.deletionTimestamp;
  if (typeof since !== "string" || since === "") return undefined;
  const finalizers = finalizersOf(live?.metadata);
  const held =
    finalizers.length === 0 ? "" : `, held by finalizer${finalizers.length > 1 ? "s" : ""} ${finalizers.join(", ")}`;
  return `being deleted (deletionTimestamp ${since}${held}); codify waits until it is gone`;
}
