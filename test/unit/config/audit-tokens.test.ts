import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditClientNames, readAuditTokens } from "../../../src/config/audit-tokens.ts";
import { loadClusterRegistry, loadClusterRegistryText } from "../../../src/config/cluster-registry.ts";

const lines = (...text: string[]) => `${text.join("\n")}\n`;
const FILE = "/etc/undrift/clusters.yml";
const LONG = "a".repeat(40);

const messageOf = (text: string) => {
  try {
    loadClusterRegistryText(text, FILE);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected an error");
};

describe("the registry's audit.token", () => {
  it("is read from an environment variable or a file, never written inline", () => {
    const inline = lines(
      "clusters:",
      "  prod:",
      "    inCluster: true",
      "    repositories: [a/b]",
      "    audit:",
      "      token: s3cret-inline",
    );
    const message = messageOf(inline);
    expect(message).toBe(
      `${FILE}:6: clusters.prod.audit.token: expected {env: NAME} or {file: path} (a token is never written inline)`,
    );
    expect(message).not.toContain("s3cret-inline");
    const typo = lines(
      "clusters:",
      "  prod:",
      "    inCluster: true",
      "    repositories: [a/b]",
      "    audit:",
      "      tokn: {env: X}",
    );
    expect(messageOf(typo)).toMatch(/^\/etc\/undrift\/clusters\.yml:6: clusters\.prod\.audit\.tokn: unknown field/);
  });

  it("gives each cluster with audit its token, from the environment or a file relative to the registry", async () => {
    const dir = await mkdtemp(join(tmpdir(), "undrift-audit-tokens-"));
    try {
      await writeFile(join(dir, "edge.token"), `${"b".repeat(40)}\n`);
      const path = join(dir, "clusters.yml");
      await writeFile(
        path,
        lines(
          "clusters:",
          "  prod:",
          "    inCluster: true",
          "    repositories: [a/b]",
          "    audit: {token: {env: PROD_AUDIT_TOKEN}}",
          "  edge:",
          "    inCluster: true",
          "    repositories: [a/b]",
          "    audit: {token: {file: edge.token}}",
          "  plain:",
          "    inCluster: true",
          "    repositories: [a/b]",
        ),
      );
      const registry = await loadClusterRegistry(path);
      const tokens = await readAuditTokens(registry, { PROD_AUDIT_TOKEN: LONG });
      expect([...tokens]).toEqual([
        ["prod", LONG],
        ["edge", "b".repeat(40)],
      ]);
      await expect(readAuditTokens(registry, {})).rejects.toThrow(
        'cluster "prod" audit.token: environment variable PROD_AUDIT_TOKEN is not set',
      );
      await expect(readAuditTokens(registry, { PROD_AUDIT_TOKEN: "short" })).rejects.toThrow(
        'cluster "prod" audit.token: at least 32 characters (e.g. openssl rand -hex 32)',
      );
      const shared = readAuditTokens(registry, { PROD_AUDIT_TOKEN: "b".repeat(40) });
      await expect(shared).rejects.toThrow(
        'cluster "edge" audit.token: the same token as cluster "prod"\'s; each cluster needs its own',
      );
      await expect(shared).rejects.not.toThrow("bbbb");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("may name a client certificate's CN instead, one cluster per CN, and needs one of the two", () => {
    const registry = loadClusterRegistryText(
      lines(
        "clusters:",
        "  prod:",
        "    inCluster: true",
        "    repositories: [a/b]",
        "    audit: {clientCertificate: {commonName: kube-apiserver-prod}}",
      ),
      FILE,
    );
    expect([...auditClientNames(registry)]).toEqual([["prod", "kube-apiserver-prod"]]);
    const shared = loadClusterRegistryText(
      lines(
        "clusters:",
        "  prod:",
        "    inCluster: true",
        "    repositories: [a/b]",
        "    audit: {clientCertificate: {commonName: apiserver}}",
        "  edge:",
        "    inCluster: true",
        "    repositories: [a/b]",
        "    audit: {clientCertificate: {commonName: apiserver}}",
      ),
      FILE,
    );
    expect(() => auditClientNames(shared)).toThrow(
      'cluster "edge" audit.clientCertificate.commonName: the same as cluster "prod"\'s; each cluster needs its own',
    );
    const empty = lines("clusters:", "  prod:", "    inCluster: true", "    repositories: [a/b]", "    audit: {}");
    expect(messageOf(empty)).toBe(`${FILE}:5: clusters.prod.audit: needs token or clientCertificate`);
  });
});
