import { describe, expect, it } from "vitest";
import { connectionError } from "../../../src/live/connection-error.ts";
import { ClusterTlsError, ClusterUnreachableError } from "../../../src/live/errors.ts";
import { isPermanent } from "../../../src/model/undrift-error.ts";

const failure = (code: string, message = code) => Object.assign(new Error(message), { code });
const describeFailure = (code: string, message?: string) =>
  connectionError({
    error: failure(code, message),
    server: "https://api.prod.example.com:6443",
    cluster: "prod",
    user: "ci",
    kubeconfig: "/etc/undrift/prod.kubeconfig",
  });

describe("why a request to the API server got no answer", () => {
  it.each([
    "SELF_SIGNED_CERT_IN_CHAIN",
    "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
    "DEPTH_ZERO_SELF_SIGNED_CERT",
    "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  ])(
    "a certificate-authority that did not sign the server's certificate (%s) is a TLS error, not unreachable",
    (code) => {
      const error = describeFailure(code);
      expect(error).toBeInstanceOf(ClusterTlsError);
      expect(error.message).toBe(
        "cluster prod: TLS: certificate signed by unknown authority (check certificate-authority in /etc/undrift/prod.kubeconfig)",
      );
      expect(isPermanent(error)).toBe(true);
    },
  );

  it("names the host a certificate is not valid for, and an expired one", () => {
    expect(describeFailure("ERR_TLS_CERT_ALTNAME_INVALID").message).toBe(
      "cluster prod: TLS: the server's certificate is not valid for api.prod.example.com (check server (or tls-server-name) in /etc/undrift/prod.kubeconfig)",
    );
    expect(describeFailure("CERT_HAS_EXPIRED").message).toBe(
      "cluster prod: TLS: the server's certificate has expired (check the server's certificate in /etc/undrift/prod.kubeconfig)",
    );
  });

  it("says a client key that does not match its certificate is a TLS problem of the kubeconfig", () => {
    const error = describeFailure(
      "ERR_OSSL_X509_KEY_VALUES_MISMATCH",
      "error:05800074:x509 certificate routines::key values mismatch",
    );
    expect(error).toBeInstanceOf(ClusterTlsError);
    expect(error.message).toBe(
      'cluster prod: TLS: key values mismatch (check the TLS files of cluster prod and user "ci" in /etc/undrift/prod.kubeconfig)',
    );
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "ETIMEDOUT", "ECONNRESET"])("%s is unreachable, worth a retry", (code) => {
    const error = describeFailure(code, `connect ${code} 10.0.0.1:6443`);
    expect(error).toBeInstanceOf(ClusterUnreachableError);
    expect(error.message).toBe(
      `cluster at https://api.prod.example.com:6443 is unreachable: connect ${code} 10.0.0.1:6443`,
    );
    expect(isPermanent(error)).toBe(false);
  });
});
