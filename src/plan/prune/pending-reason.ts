// Why a pruned object is still there, for its `deleting` record: what holds it,
// so a person knows whom to ask (the finalizer's controller) or what it waits for.
import { finalizersOf } from "../../model/finalizers-of.ts";
import type { KubeObject } from "../../model/types.ts";

/** `deletion pending: finalizer example.com/hold holds it`; `already`: it was marked before this prune read it. */
export function pendingReason(live: KubeObject, options: { already: boolean }): string {
  const since = live.metadata.deletionTimestamp;
  const head = options.already
    ? `already being deleted${typeof since === "string" ? ` since ${since}` : ""}, not deleted again`
    : "deletion pending";
  return `${head}: ${holder(live)}`;
}

function holder(live: KubeObject): string {
  const finalizers = finalizersOf(live.metadata);
  if (finalizers.length === 1) return `finalizer ${finalizers[0]} holds it until its controller removes it`;
  if (finalizers.length > 1) return `finalizers ${finalizers.join(", ")} hold it until their controllers remove them`;
  if (live.kind === "Namespace") return "the Namespace is terminating (everything in it is deleted first)";
  return "the server has not removed it yet (its grace period)";
}
