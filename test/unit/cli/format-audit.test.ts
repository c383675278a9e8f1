import { describe, expect, it } from "vitest";
import { formatAudit } from "../../../src/cli/format-audit.ts";
import type { AuditRecord } from "../../../src/state/audit-log.ts";

const record: AuditRecord = {
  id: "1796000000000-0",
  time: "2026-11-30T10:00:00.000Z",
  event: "pr-opened",
  repo: "acme/gitops",
  target: "infra",
  cluster: "prod-eu",
  revision: "0123456789abcdef0123456789abcdef01234567",
  objects: ["Deployment/shop/web", "ConfigMap/shop/app-config"],
  fields: ["Deployment/shop/web:/spec/replicas"],
  managers: ["kubectl-edit"],
  writers: [
    "Deployment/shop/web:/spec/replicas by alice (sre) at 2026-11-30T09:58:00.000Z from 10.1.2.3",
    "ConfigMap/shop/app-config deleted by system:serviceaccount:ci:deployer at 2026-11-30T09:59:00.000Z",
  ],
  actor: "undrift",
  outcome: "opened #12",
  url: "https://github.com/acme/gitops/pull/12",
};

describe("formatAudit", () => {
  it("prints one line per entry, then the objects, fields and managers it touched, and who in the cluster wrote each", () => {
    expect(formatAudit([record])).toBe(
      [
        "2026-11-30T10:00:00.000Z  acme/gitops  infra@prod-eu  pr-opened  by undrift: opened #12 at 0123456789ab",
        "    objects:  Deployment/shop/web, ConfigMap/shop/app-config",
        "    fields:   Deployment/shop/web:/spec/replicas",
        "    managers: kubectl-edit",
        "    writer:   Deployment/shop/web:/spec/replicas by alice (sre) at 2026-11-30T09:58:00.000Z from 10.1.2.3",
        "    writer:   ConfigMap/shop/app-config deleted by system:serviceaccount:ci:deployer at 2026-11-30T09:59:00.000Z",
        "    https://github.com/acme/gitops/pull/12",
        "",
      ].join("\n"),
    );
  });

  it("leaves out what an entry does not have", () => {
    const refusal: AuditRecord = {
      id: "1796000000001-0",
      time: "2026-11-30T10:00:01.000Z",
      event: "refusal",
      repo: "acme/gitops",
      objects: [],
      fields: [],
      managers: [],
      writers: [],
      actor: "undrift",
      outcome: ".github/undrift.yml:3: targets[0].cluster: not allowed",
    };
    expect(formatAudit([refusal])).toBe(
      "2026-11-30T10:00:01.000Z  acme/gitops  -  refusal  by undrift: .github/undrift.yml:3: targets[0].cluster: not allowed\n",
    );
  });

  it("says so when there is nothing to show", () => {
    expect(formatAudit([])).toBe("no audit entries\n");
  });
});
