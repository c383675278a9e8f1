// Why a request never got an answer, told apart the way a person fixes it:
// a server that is down or unknown (retry later, check `server`), a TLS
// handshake that failed (check `certificate-authority`, the certificate's
// host names, the client certificate: no retry helps), as kubectl tells
// "x509: certificate signed by unknown authority" from "connection refused".
import { ClusterTlsError, ClusterUnreachableError } from "./errors.ts";

/** What a TLS failure means, and which kubeconfig field to check; by OpenSSL's verify codes as Node reports them. */
const TLS_CAUSES: Record<string, { why: (host: string) => string; check: string }> = {
  ...Object.fromEntries(
    [
      "UNABLE_TO_GET_ISSUER_CERT",
      "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
      "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      "SELF_SIGNED_CERT_IN_CHAIN",
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "CERT_SIGNATURE_FAILURE",
      "CERT_UNTRUSTED",
    ].map((code) => [code, { why: () => "certificate signed by unknown authority", check: "certificate-authority" }]),
  ),
  CERT_HAS_EXPIRED: { why: () => "the server's certificate has expired", check: "the server's certificate" },
  CERT_NOT_YET_VALID: { why: () => "the server's certificate is not valid yet", check: "this machine's clock" },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    why: (host) => `the server's certificate is not valid for ${host}`,
    check: "server (or tls-server-name)",
  },
};

/** The typed error for a request to `server` that failed before any answer. */
export function connectionError(params: {
  error: unknown;
  server: string;
  cluster: string;
  user: string;
  kubeconfig: string;
}): ClusterTlsError | ClusterUnreachableError {
  const { error, server, cluster, kubeconfig } = params;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const known = TLS_CAUSES[code];
  if (known) {
    const why = known.why(new URL(server).hostname);
    return new ClusterTlsError(`cluster ${cluster}: TLS: ${why} (check ${known.check} in ${kubeconfig})`, {
      cause: error,
    });
  }
  // OpenSSL's own failures: a client key that does not match its certificate, a file that is no PEM, a server that speaks no TLS.
  if (/^(ERR_OSSL_|ERR_SSL_|ERR_TLS_)/.test(code)) {
    const message = error instanceof Error ? error.message.replace(/^error:[0-9A-F]+:[^:]*::?/i, "") : String(error);
    const check = code.startsWith("ERR_SSL_")
      ? "server"
      : `the TLS files of cluster ${cluster} and user "${params.user}"`;
    return new ClusterTlsError(`cluster ${cluster}: TLS: ${message} (check ${check} in ${kubeconfig})`, {
      cause: error,
    });
  }
  return new ClusterUnreachableError(server, { cause: error });
}
