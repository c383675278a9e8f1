import { describe, expect, it } from "vitest";
import { buildReport } from "../../../src/drift/build-report.ts";
import { maskResource, maskSecretChange, redactSecretValues } from "../../../src/drift/mask.ts";
import type { DriftReport, KubeObject, ResourceReport } from "../../../src/model/types.ts";
import { compare, fixture, fixtureCase } from "./drift-fixtures.ts";

const source = { file: "apps/shop/secret.yaml", document: 0 };
const base64 = (text: string) => Buffer.from(text).toString("base64");
// Every Secret value the fixtures hold, plain and base64.
const secrets = ["s3cret-pa55w0rd", "hunter2-hotfix", "shop-app"].flatMap((v) => [v, base64(v)]);

async function report(name: string): Promise<DriftReport> {
  const pair = fixtureCase(name);
  const comparison = await compare(pair);
  return buildReport({
    target: "shop",
    revision: "0c5f3e1",
    pairings: [{ desired: { object: pair.desired, source }, live: pair.live, comparison }],
    problems: [],
  });
}

describe("Secrets", () => {
  it("stringData in Git matches the same values the API server keeps base64-encoded in data", async () => {
    const pair = fixtureCase("secret-string-data");
    expect((await compare(pair)).changes).toEqual([]);
    expect((await compare({ ...pair, wouldBe: fixture("secret-string-data-live") })).changes).toEqual([]);
  });

  it("a value changed by hand is drift, shown masked as changed", async () => {
    const { resources, summary } = await report("secret-edited");
    expect(summary.drifted).toBe(1);
    expect(resources[0]!.changes).toEqual([
      {
        path: "/data/password",
        desired: "*** (after)",
        live: "*** (before)",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:21:09Z",
      },
    ]);
  });

  it("masks the live and would-be objects, telling the changed value from the same one", async () => {
    const { resources } = await report("secret-edited");
    expect(resources[0]!.live?.data).toEqual({ password: "*** (before)", username: "***" });
    expect(resources[0]!.wouldBe?.data).toEqual({ password: "*** (after)", username: "***" });
  });

  it("never lets a value out, plain or base64, in any part of the report", async () => {
    for (const name of ["secret-edited", "secret-string-data"]) {
      const json = JSON.stringify(await report(name));
      for (const value of secrets) expect(json).not.toContain(value);
    }
  });

  it("masks a missing Secret's stringData and an orphaned Secret's data", () => {
    const desired = fixture("secret-string-data-desired");
    const orphan = fixture("secret-edited-live");
    orphan.metadata.name = "old-credentials";
    const { resources } = buildReport({
      target: "shop",
      revision: "0c5f3e1",
      pairings: [{ desired: { object: desired, source } }, { live: orphan }],
      problems: [],
    });
    expect(resources[0]!.wouldBe?.stringData).toEqual({ username: "***", password: "***" });
    expect(resources[1]!.live?.data).toEqual({ password: "***", username: "***" });
    const json = JSON.stringify(resources);
    for (const value of secrets) expect(json).not.toContain(value);
  });

  it("masks a value that exists on one side only without before or after", () => {
    expect(maskSecretChange({ path: "/data/API_TOKEN", live: "dG9rZW4tMTIzNA==", manager: "kubectl-edit" })).toEqual({
      path: "/data/API_TOKEN",
      live: "***",
      manager: "kubectl-edit",
    });
    expect(maskSecretChange({ path: "/stringData/API_TOKEN", desired: "token-1234" })).toEqual({
      path: "/stringData/API_TOKEN",
      desired: "***",
    });
  });

  it("masks every key of a whole data map, and leaves other fields of a Secret alone", () => {
    expect(maskSecretChange({ path: "/data", live: { a: "YWFhYQ==", b: "YmJiYg==" } })).toEqual({
      path: "/data",
      live: { a: "***", b: "***" },
    });
    const type = { path: "/type", desired: "Opaque", live: "kubernetes.io/basic-auth" };
    expect(maskSecretChange(type)).toEqual(type);
  });

  it("masks the last-applied-configuration annotation, which holds the whole manifest", () => {
    const live = fixture("secret-edited-live");
    const annotation = "kubectl.kubernetes.io/last-applied-configuration";
    live.metadata.annotations = { [annotation]: JSON.stringify({ stringData: { password: "s3cret-pa55w0rd" } }) };
    const resource: ResourceReport = {
      apiVersion: "v1",
      kind: "Secret",
      namespace: "shop",
      name: "db-credentials",
      status: "drifted",
      changes: [{ path: "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration", live: "{...}" }],
      live,
    };
    const masked = maskResource(resource);
    expect(masked.live?.metadata.annotations?.[annotation]).toBe("***");
    expect(masked.changes[0]!.live).toBe("***");
  });

  it("does not mask a ConfigMap", () => {
    const live = fixture("configmap-dropped-key-live");
    const resource: ResourceReport = {
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "app-config",
      status: "drifted",
      changes: [{ path: "/data/LOG_LEVEL", desired: "info", live: "debug" }],
      live,
    };
    expect(maskResource(resource)).toEqual(resource);
  });
});

describe("redacting Secret values from a message", () => {
  const secret = (map: "data" | "stringData", values: Record<string, string>): KubeObject => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "db-credentials", namespace: "shop" },
    [map]: values,
  });

  it("removes stringData values, plain and base64", () => {
    const message = `Secret "db-credentials" is invalid: data[password]: "s3cret-pa55w0rd" (${base64("s3cret-pa55w0rd")})`;
    expect(redactSecretValues(message, [secret("stringData", { password: "s3cret-pa55w0rd" })])).toBe(
      'Secret "db-credentials" is invalid: data[password]: "***" (***)',
    );
  });

  it("removes data values, base64 and decoded", () => {
    const message = `admission webhook denied: password ${base64("hunter2-hotfix")} / hunter2-hotfix is weak`;
    expect(redactSecretValues(message, [secret("data", { password: base64("hunter2-hotfix") })])).toBe(
      "admission webhook denied: password *** / *** is weak",
    );
  });

  it("leaves a message about other things as it is", () => {
    const message = 'Secret "db-credentials" is forbidden: User "ci" cannot patch resource "secrets"';
    expect(redactSecretValues(message, [secret("stringData", { password: "s3cret-pa55w0rd" })])).toBe(message);
  });
});
