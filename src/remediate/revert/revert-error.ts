// An error that stops a revert, named after the object it was working on, as
// `Deployment/shop/web: apply failed: cluster at https://... is unreachable`.
// Refusals by the API server are not errors: they become failed records.

import { KubeApiError } from "../../live/errors.ts";
import type { KubeObject } from "../../model/types.ts";
import { isPermanent, UndriftError } from "../../model/undrift-error.ts";

export class RevertError extends UndriftError {
  override name = "RevertError";
  /** What was being done to the object: `apply failed`, `delete failed`. */
  readonly step: string;

  /** A wrapper: the error it stopped on decides (a refused connection is retried, a 403 is not). */
  get permanent(): boolean {
    return isPermanent(this.cause);
  }

  constructor(object: Pick<KubeObject, "kind" | "metadata">, what: string, options: { cause: unknown }) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`${objectPathName(object)}: ${what}: ${why}`, options);
    this.step = what;
  }
}

/** `Deployment/shop/web`, or `Namespace/shop` for a cluster-scoped object. */
export function objectPathName(object: Pick<KubeObject, "kind" | "metadata">): string {
  return [object.kind, object.metadata.namespace, object.metadata.name].filter(Boolean).join("/");
}

/** The API server's refusal, which becomes a failed record; any other error stops the revert, naming the object. */
export function asApiError(object: Pick<KubeObject, "kind" | "metadata">, what: string, error: unknown): KubeApiError {
  if (error instanceof KubeApiError) return error;
  throw new RevertError(object, what, { cause: error });
}
