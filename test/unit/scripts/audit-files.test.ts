// The test cluster's audit webhook: kube-apiserver is pointed at https (client-go sends a bearer token over TLS
// only) on the port cluster:up chose, with a token of its own, in batch mode, and the policy keeps reads out.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { auditFiles } from "../../../scripts/cluster/audit.ts";

describe("the test cluster's audit webhook files", () => {
  it("point kube-apiserver at undrift over https with a token, in batch mode, with reads at level None", () => {
    const dir = mkdtempSync(join(tmpdir(), "undrift-audit-files-"));
    try {
      const serving = { certFile: "/pki/component.crt", keyFile: "/pki/component.key", caCert: "/pki/ca.crt" };
      const { webhook, args } = auditFiles(dir, 20128, serving);
      expect(webhook).toEqual({
        port: 20128,
        tokenFile: join(dir, "audit-webhook.token"),
        cluster: "test",
        ...serving,
      });
      const token = readFileSync(webhook.tokenFile, "utf8").trim();
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      const config = parse(readFileSync(join(dir, "audit-webhook.kubeconfig"), "utf8"));
      expect(config.clusters[0].cluster).toEqual({
        server: "https://127.0.0.1:20128/attribution/audit/test",
        "certificate-authority": "/pki/ca.crt",
      });
      expect(config.users[0].user).toEqual({ token });
      expect(args).toEqual(
        expect.arrayContaining([
          `--audit-webhook-config-file=${join(dir, "audit-webhook.kubeconfig")}`,
          `--audit-policy-file=${join(dir, "audit-policy.yaml")}`,
          "--audit-webhook-mode=batch",
          "--audit-webhook-batch-max-wait=1s",
        ]),
      );
      const policy = parse(readFileSync(join(dir, "audit-policy.yaml"), "utf8"));
      expect(policy.rules[0]).toEqual({ level: "None", verbs: ["get", "list", "watch"] });
      expect(policy.rules.at(-1)).toEqual({ level: "Metadata" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
