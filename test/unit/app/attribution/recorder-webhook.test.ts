// The recorder's webhook configuration: what `undrift attribution install` applies.
import { describe, expect, it } from "vitest";
import { isRecorderToken, recorderToken } from "../../../../src/app/attribution/recorder-token.ts";
import { labelSelectorOf, recorderWebhook } from "../../../../src/app/attribution/recorder-webhook.ts";
import { parseRecorderEnv } from "../../../../src/config/recorder-env.ts";

const ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("the recorder's ValidatingWebhookConfiguration", () => {
  const object = recorderWebhook({
    cluster: "prod-eu",
    baseUrl: "https://undrift.example.com:8443/",
    token: "0a1b2c",
    caPem: ca,
    selector: "undrift.dev/target",
    timeoutSeconds: 2,
  }) as unknown as { metadata: { name: string }; webhooks: Array<Record<string, unknown>> };

  it("can never block a write: Ignore on failure, no side effects, a short timeout, writes only", () => {
    expect(object.metadata.name).toBe("undrift-recorder-prod-eu");
    expect(object.webhooks[0]).toMatchObject({
      failurePolicy: "Ignore",
      sideEffects: "None",
      timeoutSeconds: 2,
      admissionReviewVersions: ["v1"],
      rules: [expect.objectContaining({ operations: ["CREATE", "UPDATE", "DELETE"] })],
      clientConfig: {
        url: "https://undrift.example.com:8443/attribution/admission/prod-eu/0a1b2c",
        caBundle: Buffer.from(ca).toString("base64"),
      },
      objectSelector: { matchExpressions: [{ key: "undrift.dev/target", operator: "Exists" }] },
    });
  });

  it("sends only tracked objects: the tracking selector as the API's LabelSelector", () => {
    expect(labelSelectorOf("app.kubernetes.io/instance=shop,tier!=db,!skip")).toEqual({
      matchLabels: { "app.kubernetes.io/instance": "shop" },
      matchExpressions: [
        { key: "tier", operator: "NotIn", values: ["db"] },
        { key: "skip", operator: "DoesNotExist" },
      ],
    });
  });
});

describe("UNDRIFT_RECORDER_*", () => {
  it("is off without a port, and names the variable that is missing or wrong", () => {
    expect(parseRecorderEnv({})).toBeUndefined();
    expect(() => parseRecorderEnv({ UNDRIFT_RECORDER_CERT_FILE: "/x" })).toThrow(
      "UNDRIFT_RECORDER_CERT_FILE: set without UNDRIFT_RECORDER_PORT, which turns the recorder on",
    );
    expect(() => parseRecorderEnv({ UNDRIFT_RECORDER_PORT: "99999" })).toThrow(
      "UNDRIFT_RECORDER_PORT: expected a port number from 1 to 65535",
    );
    expect(() => parseRecorderEnv({ UNDRIFT_RECORDER_PORT: "8443" })).toThrow(
      "UNDRIFT_RECORDER_CERT_FILE: required with UNDRIFT_RECORDER_PORT (the API server calls webhooks over https)",
    );
    expect(() =>
      parseRecorderEnv({
        UNDRIFT_RECORDER_PORT: "8443",
        UNDRIFT_RECORDER_CERT_FILE: "/nope.crt",
        UNDRIFT_RECORDER_KEY_FILE: "/nope.key",
      }),
    ).toThrow("UNDRIFT_RECORDER_CERT_FILE: /nope.crt: no such file");
    const file = import.meta.filename;
    const files = { UNDRIFT_RECORDER_PORT: "8443", UNDRIFT_RECORDER_CERT_FILE: file, UNDRIFT_RECORDER_KEY_FILE: file };
    expect(() => parseRecorderEnv({ ...files, UNDRIFT_RECORDER_SECRET: "short" })).toThrow(
      "UNDRIFT_RECORDER_SECRET: required with UNDRIFT_RECORDER_PORT, at least 32 characters (e.g. openssl rand -hex 32)",
    );
    const secret = "s".repeat(32);
    expect(parseRecorderEnv({ ...files, UNDRIFT_RECORDER_SECRET: secret })).toEqual({
      port: 8443,
      host: "0.0.0.0",
      certFile: file,
      keyFile: file,
      secret,
    });
  });
});

describe("a cluster's recorder token", () => {
  it("is its own: another cluster's, another secret's or a cut one is refused", () => {
    const secret = "k".repeat(40);
    const token = recorderToken(secret, "prod-eu");
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(isRecorderToken(secret, "prod-eu", token)).toBe(true);
    expect(isRecorderToken(secret, "prod-us", token)).toBe(false);
    expect(isRecorderToken("j".repeat(40), "prod-eu", token)).toBe(false);
    expect(isRecorderToken(secret, "prod-eu", token.slice(0, 63))).toBe(false);
  });
});
