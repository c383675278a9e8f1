// Typed errors of the live stage. The worker and the CLI classify by class, once.

/** The API server answered with an error status; `reason` is the Status reason (Forbidden, NotFound, Expired, ...). */
export class KubeApiError extends Error {
  override name = "KubeApiError";
  readonly status: number;
  readonly reason: string;
  readonly verb: string;
  readonly path: string;

  constructor(params: { status: number; reason: string; message: string; verb: string; path: string }) {
    super(`${params.verb} ${params.path}: ${params.status} ${params.reason}: ${params.message}`);
    this.status = params.status;
    this.reason = params.reason;
    this.verb = params.verb;
    this.path = params.path;
  }
}

/** The cluster could not be reached at all (DNS, refused connection, TLS, timeout). */
export class ClusterUnreachableError extends Error {
  override name = "ClusterUnreachableError";
  constructor(server: string, options: { cause: unknown }) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`cluster at ${server} is unreachable: ${why}`, options);
  }
}

/** The kubeconfig or context given cannot be used. */
export class KubeconfigError extends Error {
  override name = "KubeconfigError";
}
