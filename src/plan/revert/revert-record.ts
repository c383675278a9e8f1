// The record file a revert PR adds under `.undrift/`: what merging it approves
// (target, cluster, the revision scanned, the drift fingerprint, and each
// object's masked changes with its own fingerprint). The audit trail lives in
// Git history; on merge the handler reads it back and applies only the drift
// whose fingerprint still matches, reporting the rest.

import { stringify } from "yaml";
import { z } from "zod";
import { parseYamlConfig } from "../../config/parse-yaml-config.ts";
import { fingerprint } from "../../drift/fingerprint.ts";
import { maskSecretChange } from "../../drift/mask.ts";
import { isSecret } from "../../model/is-secret.ts";
import type { Change, DriftReport, DriftStatus, ResourceReport } from "../../model/types.ts";

const changeSchema = z.strictObject({
  path: z.string().startsWith("/").describe("JSON pointer into the object."),
  desired: z.unknown().optional().describe("The value in Git (absent: Git does not set it). Secret values are masked."),
  live: z.unknown().optional().describe("The value in the cluster (absent: the cluster lacks it)."),
  manager: z.string().optional().describe("The field manager that last wrote the live field."),
  changedAt: z.string().optional().describe("When it did."),
});

const objectSchema = z.strictObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  namespace: z.string().optional(),
  name: z.string().min(1),
  status: z.enum(["drifted", "missing", "orphaned"] as const satisfies readonly DriftStatus[]),
  fingerprint: z.string().min(1).describe("This object's drift alone, as the scan fingerprints it."),
  changes: z.array(changeSchema),
});

export const revertRecordSchema = z.strictObject({
  apiVersion: z.literal("undrift.dev/v1"),
  kind: z.literal("RevertRecord"),
  target: z.string().min(1),
  cluster: z.string().min(1),
  revision: z.string().min(1).describe("The commit the scan rendered Git from."),
  fingerprint: z.string().min(1).describe("The whole drift's fingerprint, as in the PR's marker."),
  objects: z.array(objectSchema),
});

export type RevertRecord = z.infer<typeof revertRecordSchema>;
export type RevertRecordObject = z.infer<typeof objectSchema>;

/** `.undrift/revert/infra.yaml`: one file per target, replaced when the drift changes. */
export function revertRecordPath(target: string): string {
  return `.undrift/revert/${target}.yaml`;
}

/** The record of a report's drift (in-sync objects left out), for the cluster the target is bound to. */
export function revertRecord(params: { report: DriftReport; cluster: string }): RevertRecord {
  const { report } = params;
  return {
    apiVersion: "undrift.dev/v1",
    kind: "RevertRecord",
    target: report.target,
    cluster: params.cluster,
    revision: report.revision,
    fingerprint: report.fingerprint,
    objects: report.resources.filter((r) => r.status !== "in-sync").map(recordObject),
  };
}

/** The YAML text of the file, with a header saying what merging it does. */
export function renderRevertRecord(record: RevertRecord): string {
  const header = [
    "# Written by undrift for a revert pull request. Merging it re-applies Git to the",
    `# cluster ${record.cluster} for the drift listed here, and only that drift: anything that`,
    "# changed since this file was written is reported on the pull request, not applied.",
  ].join("\n");
  return `${header}\n${stringify(record, { lineWidth: 0 })}`;
}

/** Reads a record back; a ConfigError names the file, line and field when it is not one. */
export function parseRevertRecord(params: { text: string; file: string }): RevertRecord {
  return parseYamlConfig(revertRecordSchema, params.text, params.file);
}

function recordObject(resource: ResourceReport): RevertRecordObject {
  // The engine masks before a report exists; masking again costs nothing and keeps Git free of Secret values regardless.
  const changes = isSecret(resource) ? resource.changes.map(maskSecretChange) : resource.changes;
  return {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    ...(resource.namespace ? { namespace: resource.namespace } : {}),
    name: resource.name,
    status: resource.status as DriftStatus, // the record leaves in-sync objects out
    fingerprint: fingerprint([resource]),
    changes: changes.map(recordChange),
  };
}

function recordChange(change: Change): RevertRecordObject["changes"][number] {
  return {
    path: change.path,
    ...("desired" in change && change.desired !== undefined ? { desired: change.desired } : {}),
    ...("live" in change && change.live !== undefined ? { live: change.live } : {}),
    ...(change.manager ? { manager: change.manager } : {}),
    ...(change.changedAt ? { changedAt: change.changedAt } : {}),
  };
}
