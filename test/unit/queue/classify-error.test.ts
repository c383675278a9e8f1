import { describe, expect, it } from "vitest";
import { ClusterAccessError } from "../../../src/config/cluster-registry.ts";
import { ConfigError } from "../../../src/config/config-error.ts";
import { UnknownTargetError } from "../../../src/config/pick-target.ts";
import { DuplicateObjectError, UnknownKindError } from "../../../src/desired/finalize-desired.ts";
import { RenderError } from "../../../src/desired/render-error.ts";
import { SnapshotError } from "../../../src/github/snapshot-error.ts";
import { ClusterUnreachableError, KubeApiError, KubeconfigError } from "../../../src/live/errors.ts";
import { UndriftError } from "../../../src/model/undrift-error.ts";
import { classifyError } from "../../../src/queue/classify-error.ts";
import { InvalidJobError } from "../../../src/queue/jobs.ts";
import { LockTimeoutError } from "../../../src/queue/redis-lock.ts";
import { RevertError } from "../../../src/remediate/revert/revert-error.ts";

const kube = (status: number, reason: string) =>
  new KubeApiError({ status, reason, message: reason, verb: "GET", path: "/api/v1/namespaces/shop/configmaps" });
const network = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code });
const deployment = { kind: "Deployment", metadata: { namespace: "shop", name: "web" } };

// Octokit's RequestError, as the GitHub side throws it: an HTTP status and response headers.
class RequestError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, headers: Record<string, string> = {}) {
    super(`GitHub answered ${status}`);
    this.status = status;
    this.headers = headers;
  }
}

describe("classifyError", () => {
  it("fails config, registry and permission errors for good", () => {
    expect(
      classifyError(
        new ConfigError(".github/undrift.yml:3: targets[0].mode: invalid", { file: ".github/undrift.yml" }),
      ),
    ).toBe("permanent");
    expect(classifyError(new ClusterAccessError("no", { cluster: "prod", repository: "acme/gitops" }))).toBe(
      "permanent",
    );
    expect(classifyError(new KubeconfigError("context prod not found"))).toBe("permanent");
    expect(classifyError(kube(401, "Unauthorized"))).toBe("permanent");
    expect(classifyError(kube(403, "Forbidden"))).toBe("permanent");
  });

  it("fails errors in the target's own files for good", () => {
    expect(classifyError(new UnknownKindError("infra/x.yaml: unknown kind"))).toBe("permanent");
    expect(classifyError(new DuplicateObjectError("infra/x.yaml: declared twice"))).toBe("permanent");
    expect(
      classifyError(new RenderError("infra/kustomization.yaml: broken", { file: "infra/kustomization.yaml" })),
    ).toBe("permanent");
    expect(classifyError(new UnknownTargetError('target "gone" is not in .github/undrift.yml'))).toBe("permanent");
    expect(classifyError(new InvalidJobError("job 1: invalid payload"))).toBe("permanent");
  });

  it("retries an unreachable cluster, the API server's 5xx and 429, and its retryable 4xx", () => {
    expect(
      classifyError(new ClusterUnreachableError("https://10.0.0.1:6443", { cause: network("ECONNREFUSED") })),
    ).toBe("transient");
    for (const [status, reason] of [
      [500, "InternalError"],
      [503, "ServiceUnavailable"],
      [429, "TooManyRequests"],
      [409, "Conflict"],
      [410, "Expired"],
    ] as const) {
      expect(classifyError(kube(status, reason)), `${status}`).toBe("transient");
    }
    expect(classifyError(kube(422, "Invalid"))).toBe("permanent");
  });

  it("retries network errors, also when fetch wraps them", () => {
    expect(classifyError(network("ECONNRESET"))).toBe("transient");
    expect(classifyError(network("EAI_AGAIN"))).toBe("transient");
    expect(classifyError(new TypeError("fetch failed", { cause: network("UND_ERR_SOCKET") }))).toBe("transient");
    expect(classifyError(new DOMException("The operation timed out.", "TimeoutError"))).toBe("transient");
  });

  it("retries a Redis connection lost mid-job (ioredis's plain error and its retry limit)", () => {
    const retryLimit = Object.assign(new Error("Reached the max retries per request limit (which is 3)."), {
      name: "MaxRetriesPerRequestError",
    });
    expect(classifyError(new Error("Connection is closed."))).toBe("transient");
    expect(classifyError(retryLimit)).toBe("transient");
  });

  it("follows the cause of a wrapper to the error that decides", () => {
    expect(classifyError(new RevertError(deployment, "apply failed", { cause: kube(403, "Forbidden") }))).toBe(
      "permanent",
    );
    expect(classifyError(new RevertError(deployment, "apply failed", { cause: kube(503, "ServiceUnavailable") }))).toBe(
      "transient",
    );
    expect(classifyError(new Error("scan failed", { cause: new ConfigError("bad", { file: "f" }) }))).toBe("permanent");
  });

  it("judges GitHub's answers by status unless the GitHub side's hook says otherwise", () => {
    expect(classifyError(new RequestError(502))).toBe("transient");
    expect(classifyError(new RequestError(404))).toBe("permanent");
    // A 403 that is a rate limit is the GitHub side's to recognise; its hook wins.
    const rateLimited = new RequestError(403, { "x-ratelimit-remaining": "0" });
    const isTransient = (error: unknown) =>
      error instanceof RequestError && error.status === 403
        ? error.headers["x-ratelimit-remaining"] === "0"
        : undefined;
    expect(classifyError(rateLimited)).toBe("permanent");
    expect(classifyError(rateLimited, isTransient)).toBe("transient");
    expect(classifyError(new RequestError(403), isTransient)).toBe("permanent");
    expect(classifyError(new ConfigError("bad", { file: "f" }), isTransient)).toBe("permanent");
  });

  it("fails an error that says nothing and is no known transient kind for good: a retry would fail the same way", () => {
    expect(classifyError(new Error("merge job of acme/gitops target infra: needs pullRequest and revision"))).toBe(
      "permanent",
    );
    expect(classifyError("a string")).toBe("permanent");
    expect(classifyError(new Error("scan failed", { cause: new Error("something odd") }))).toBe("permanent");
  });

  it("reads whether an undrift error is permanent from the error itself", () => {
    class Retryable extends UndriftError {
      override name = "Retryable";
      readonly permanent = false;
    }
    class Refused extends UndriftError {
      override name = "Refused";
      readonly permanent = true;
    }
    expect(classifyError(new Retryable("busy"))).toBe("transient");
    expect(classifyError(new Refused("no", { cause: network("ECONNRESET") }))).toBe("permanent");
    expect(classifyError(new LockTimeoutError("preview-lock:7: still locked after 30000ms"))).toBe("transient");
    expect(classifyError(new SnapshotError("unsafe", "../etc/passwd: leaves the tree"))).toBe("permanent");
    expect(classifyError(new RevertError(deployment, "apply failed", { cause: new Error("odd") }))).toBe("permanent");
  });
});
