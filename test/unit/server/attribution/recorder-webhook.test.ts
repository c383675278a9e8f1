// The recorder's webhook configuration: what `undrift attribution install` applies.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRecorderEnv } from "../../../../src/config/recorder-env.ts";
import { admissionPost, isRecorderToken, recorderToken } from "../../../../src/server/attribution/recorder-token.ts";
import { labelSelectorOf, recorderWebhook } from "../../../../src/server/attribution/recorder-webhook.ts";

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

describe("the recorder token README.md documents", () => {
  it("is the token the recorder checks and `attribution install` writes", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../../../README.md"), "utf8");
    const secret = "k".repeat(40);
    // "HMAC-SHA256 of `<message>` ... under `UNDRIFT_RECORDER_SECRET`": the message, with <cluster> filled in.
    const said = /token: HMAC-SHA256 of `([^`]+)`/.exec(readme)?.[1];
    expect(said).toBe("undrift-recorder:<cluster>");
    const documented = createHmac("sha256", secret).update(said!.replace("<cluster>", "prod-eu")).digest("hex");
    expect(recorderToken(secret, "prod-eu")).toBe(documented);
  });
});

describe("a post to the admission recorder", () => {
  const secret = "k".repeat(40);
  const token = recorderToken(secret, "prod-eu");

  it("is kept only with its cluster's token", () => {
    expect(admissionPost(secret, "POST", `/attribution/admission/prod-eu/${token}`)).toEqual({
      ok: true,
      cluster: "prod-eu",
    });
    expect(admissionPost(secret, "POST", `/attribution/admission/prod-eu/${token}?timeout=2s`)).toEqual({
      ok: true,
      cluster: "prod-eu",
    });
  });

  it("is answered 401 without a token, with a malformed one and with a wrong one", () => {
    const refused = (path: string) => admissionPost(secret, "POST", path);
    expect(refused("/attribution/admission/prod-eu")).toEqual({ ok: false, status: 401, cluster: "prod-eu" });
    expect(refused("/attribution/admission/prod-eu/")).toEqual({ ok: false, status: 401, cluster: "prod-eu" });
    expect(refused("/attribution/admission/prod-eu/not-hex!")).toEqual({ ok: false, status: 401, cluster: "prod-eu" });
    expect(refused(`/attribution/admission/prod-eu/${token.toUpperCase()}`)).toMatchObject({ status: 401 });
    expect(refused(`/attribution/admission/prod-eu/${token}/more`)).toMatchObject({ status: 401 });
    expect(refused(`/attribution/admission/prod-eu/${"0".repeat(64)}`)).toMatchObject({ status: 401 });
    expect(refused(`/attribution/admission/prod-us/${token}`)).toEqual({ ok: false, status: 401, cluster: "prod-us" });
    expect(refused(`/attribution/admission/prod-eu/${"a".repeat(4096)}`)).toMatchObject({ status: 401 });
    expect(refused("/attribution/admission")).toEqual({ ok: false, status: 401 });
    // A cluster name that is no name is not repeated into the log line.
    expect(refused(`/attribution/admission/${"%0a".repeat(3)}/${token}`)).toEqual({ ok: false, status: 401 });
  });

  it("is 404 when it is no POST or not to the recorder's path", () => {
    expect(admissionPost(secret, "GET", `/attribution/admission/prod-eu/${token}`)).toEqual({ ok: false, status: 404 });
    expect(admissionPost(secret, "POST", "/attribution/admissions/prod-eu")).toEqual({ ok: false, status: 404 });
    expect(admissionPost(secret, "POST", "/")).toEqual({ ok: false, status: 404 });
  });
});
