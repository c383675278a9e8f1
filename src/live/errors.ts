// Typed errors of the live stage; each says whether a retry could help.
import { isTransientStatus, UndriftError } from "../model/undrift-error.ts";

/** A Status object's details: for a 409 apply conflict, one cause per field with the manager that owns it. */
export interface StatusDetails {
  causes?: Array<{ type?: string; message?: string; field?: string }>;
}

/** The API server answered with an error status; `reason` is the Status reason (Forbidden, NotFound, Expired, ...). */
export class KubeApiError extends UndriftError {
  override name = "KubeApiError";
  readonly status: number;
  readonly reason: string;
  readonly verb: string;
  readonly path: string;
  /** The Status message alone, as the server wrote it. */
  readonly statusMessage: string;
  readonly details?: StatusDetails;

  constructor(params: {
    status: number;
    reason: string;
    message: string;
    verb: string;
    path: string;
    details?: StatusDetails | undefined;
  }) {
    super(`${params.verb} ${params.path}: ${params.status} ${params.reason}: ${params.message}`);
    this.status = params.status;
    this.reason = params.reason;
    this.verb = params.verb;
    this.path = params.path;
    this.statusMessage = params.message;
    if (params.details) this.details = params.details;
  }

  /**
   * `403 Forbidden: User "ci" cannot patch resource "configmaps" ...`: the refusal without the request line
   * or the server's `configmaps "web" is forbidden:`, for a message that names its object already.
   */
  get refusal(): string {
    const why = this.statusMessage.replace(/^[\w.-]+ "[^"]*" is (forbidden|invalid): /, "");
    return `${this.status} ${this.reason}${why ? `: ${why}` : ""}`;
  }

  /** The server refused the object itself (400 BadRequest: it does not decode; 422 Invalid): its apply fails so too. */
  get invalidObject(): boolean {
    return this.status === 400 || this.status === 422;
  }

  /** A 401, 403 or 422 is refused again; a 5xx, 429 or 409 may pass next time. */
  get permanent(): boolean {
    return !isTransientStatus(this.status);
  }
}

/** The cluster could not be reached at all (DNS, refused connection, a broken connection, timeout). */
export class ClusterUnreachableError extends UndriftError {
  override name = "ClusterUnreachableError";
  readonly permanent = false;
  constructor(server: string, options: { cause: unknown }) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`cluster at ${server} is unreachable: ${why}`, options);
  }
}

/**
 * The server took the request and said nothing within the client's bound (a hung API server, a proxy holding
 * the request): not "unreachable", which would send a person to check the address. It may have done the
 * request (an apply), as an unreachable one may, and a retry may pass.
 */
export class ClusterNoAnswerError extends ClusterUnreachableError {
  override name = "ClusterNoAnswerError";
  constructor(params: { cluster: string; server: string; timeoutMs: number; verb: string; path: string }) {
    const { cluster, server, timeoutMs, verb, path } = params;
    const why = `no answer within ${timeoutMs / 1000} s`;
    super(server, { cause: new Error(why) });
    this.message = `cluster ${cluster} at ${server}: ${why} (${verb} ${path})`;
  }
}

/**
 * The TLS handshake failed: the server's certificate is not signed by the kubeconfig's
 * certificate-authority, has expired, or names another host; or the client's own
 * certificate and key cannot be used. A retry meets the same certificates.
 */
export class ClusterTlsError extends UndriftError {
  override name = "ClusterTlsError";
  readonly permanent = true;
}

/** Who a client is, as errors name it: the kubeconfig's cluster and user, and the file they are in. */
export interface ClientIdentity {
  cluster: string;
  user: string;
  kubeconfig: string;
}

/**
 * The API server refused the identity itself: its credentials (401: a wrong or expired token or client
 * certificate), or, on discovery, everything it could ask (403). Every request would be refused alike.
 */
export class ClusterIdentityError extends KubeApiError {
  override name = "ClusterIdentityError";
  constructor(params: ConstructorParameters<typeof KubeApiError>[0] & { identity: ClientIdentity }) {
    super(params);
    const { cluster, user, kubeconfig } = params.identity;
    const who = `user "${user}" in ${kubeconfig}`;
    this.message =
      params.status === 401
        ? `cluster ${cluster}: 401 Unauthorized: the credentials of ${who} were refused (a wrong or expired token or client certificate)`
        : `cluster ${cluster}: ${this.refusal.replace(/: forbidden: /, ": ")} (${who} may not read which kinds the cluster serves)`;
  }
}

/**
 * An exec credential plugin ended because undrift itself is stopping (SIGTERM in a rolling upgrade, Ctrl-C): no
 * fault of the kubeconfig, so the scan is handed back to the queue for the next worker, not failed for good with a
 * failing check run.
 */
export class ExecPluginStoppedError extends UndriftError {
  override name = "ExecPluginStoppedError";
  readonly permanent = false;
}

/** The kubeconfig or context given cannot be used. */
export class KubeconfigError extends UndriftError {
  override name = "KubeconfigError";
  readonly permanent = true;
}
