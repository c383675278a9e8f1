// Queue names and job payloads. A payload names what to scan, never how to
// reach it: credentials stay in the cluster registry and in the GitHub App's
// key, so nothing read out of Redis can leak one. The schemas are strict, so a
// field that is not listed here (a token, a kubeconfig) is refused, not stored.
//
//   undrift-schedule        one job scheduler per (repository, target); each tick
//                           is a `scheduled-scan` job that enqueues a `scan`
//   undrift-scan.<cluster>  `scan` jobs of the targets bound to that cluster, so a
//                           worker serves only the clusters it names, and the
//                           rate limit is per cluster; and `preview` jobs, one per
//                           (pull request, cluster, head commit), under the same limit;
//                           `dashboard` jobs (boxes ticked on a tracking issue) and
//                           `ignore` jobs: ticked fields turned into an ignoreDifferences PR
import { z } from "zod";
import { discoveryTargetSchema } from "../config/discovery-target.ts";
import { dnsLabel } from "../config/field-schemas.ts";
import { UndriftError } from "../model/undrift-error.ts";

/** The queue holding the job schedulers; its jobs only enqueue scans, so any worker may run them. */
export const SCHEDULE_QUEUE = "undrift-schedule";

/** Job name of a scan of one target. */
export const SCAN_JOB = "scan";
/** Job name of a scheduler's tick, which enqueues a scan. */
export const SCHEDULED_SCAN_JOB = "scheduled-scan";
/** Job name of a pull request preview of the targets bound to one cluster. */
export const PREVIEW_JOB = "preview";

/** The scan queue of one cluster. BullMQ refuses ":" in queue names, so a registry name that has one is escaped. */
export function scanQueueName(cluster: string): string {
  return `undrift-scan.${encodeURIComponent(cluster)}`;
}

/** Why a scan was asked for. */
export const scanReasonSchema = z.enum(["schedule", "push", "config", "comment", "install", "merge", "watch"]);
/**
 * schedule | push | config | comment | install | merge (a revert PR merged: apply what it approved) |
 * watch (the worker's watch of the cluster saw one of the target's objects change)
 */
export type ScanReason = z.output<typeof scanReasonSchema>;

const repoSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/, { error: "expected owner/name" })
  .describe("The repository, owner/name.");

/** A full commit SHA (SHA-1, or SHA-256 in repositories that use it). */
const commitSha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, { error: "expected a full commit SHA" });

const fields = {
  installationId: z
    .number()
    .int()
    .positive()
    .describe("The GitHub App installation that grants access to the repository."),
  repo: repoSchema,
  target: z
    .union([dnsLabel, discoveryTargetSchema])
    .describe("The target's name in .github/undrift.yml (or a discovered one), or a `discover:` entry's tick."),
  cluster: z.string().min(1).describe("The target's cluster: a name in the cluster registry, never credentials."),
};

/** A scan of one target. */
export const scanJobSchema = z.strictObject({
  ...fields,
  revision: commitSha
    .optional()
    .describe(
      "The commit that prompted the scan. A scan reads the default branch head when it starts, which includes this commit; a newer push that arrives while the job waits is folded into it.",
    ),
  reason: scanReasonSchema,
  pullRequest: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("With reason merge: the merged revert pull request, whose record (at `revision`) says what to apply."),
});
/** The payload of a `scan` job. */
export type ScanJob = z.output<typeof scanJobSchema>;

/** A scheduler's tick: which target to enqueue a scan of. */
export const scheduledScanJobSchema = z.strictObject(fields);
/** The payload of a `scheduled-scan` job, the template data of a scheduler. */
export type ScheduledScanJob = z.output<typeof scheduledScanJobSchema>;

/** A preview of one pull request's head on one cluster: what merging would change there (src/app/preview/). */
export const previewJobSchema = z.strictObject({
  installationId: fields.installationId,
  repo: repoSchema,
  cluster: fields.cluster,
  pullRequest: z.number().int().positive().describe("The pull request previewed."),
  head: commitSha.describe("The pull request's head commit: rendered against the live cluster."),
  base: commitSha.describe("The merge base of head and the base branch: what head is compared with."),
  targets: z
    .array(dnsLabel)
    .min(1)
    .describe("The head config's targets bound to this cluster; only those whose render changed are previewed."),
  reason: z.enum(["pull_request", "comment"]).describe("A pull_request event, or `/undrift preview` from a writer."),
});
/** The payload of a `preview` job. */
export type PreviewJob = z.output<typeof previewJobSchema>;

/** Job name of an ignore request: ticked fields or objects of a target become an ignoreDifferences PR. */
export const IGNORE_JOB = "ignore";

/** What to stop counting as drift: an object of the target, and one of its fields (absent: the whole object). */
const ignoreItemSchema = z.strictObject({
  apiVersion: z.string().min(1).describe("The object's apiVersion, e.g. apps/v1."),
  kind: z.string().min(1).describe("The object's kind."),
  namespace: z.string().min(1).optional().describe("The object's namespace; absent for a cluster-scoped object."),
  name: z.string().min(1).describe("The object's name."),
  path: z
    .string()
    .regex(/^\//, { error: "expected a JSON pointer starting with /" })
    .optional()
    .describe("The field, as the report's JSON pointer; absent for the whole object."),
});

/** An ignore request for one target (the tracking issue's ignore box, or a heal fight). */
export const ignoreJobSchema = z.strictObject({
  ...fields,
  items: z.array(ignoreItemSchema).min(1).describe("The fields or objects to ignore from now on."),
  requestedBy: z.string().min(1).describe("Who asked: a GitHub login, or undrift itself for a heal fight."),
});
/** The payload of an `ignore` job. */
export type IgnoreJob = z.output<typeof ignoreJobSchema>;
/** One ticked field or object of an ignore job. */
export type IgnoreItem = IgnoreJob["items"][number];

/** Job name of the boxes a writer ticked on a tracking issue's dashboard (src/worker/dashboard/). */
export const DASHBOARD_JOB = "dashboard";

const requestedBy = z.string().min(1).max(39).describe("The GitHub login of the writer who asked.");

/** The boxes ticked by one writer in one edit of a tracking issue. */
export const dashboardJobSchema = z.strictObject({
  ...fields,
  issue: z.number().int().positive().describe("The tracking issue the boxes are on."),
  boxes: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[0-9a-f]{8,64}$/, { error: "expected a box id" }),
        action: z.enum(["codify", "revert", "ignore", "snooze-1d", "snooze-7d", "rescan"]),
      }),
    )
    .min(1)
    .describe("The boxes newly ticked, by their hidden ids."),
  requestedBy,
});
/** The payload of a `dashboard` job. */
export type DashboardJob = z.output<typeof dashboardJobSchema>;

/** A job payload that does not match its schema: a bug in the producer, never worth a retry. */
export class InvalidJobError extends UndriftError {
  override name = "InvalidJobError";
  readonly permanent = true;
}

/** `data` checked against `schema`; throws InvalidJobError naming the job and the first bad field. */
export function parseJob<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new InvalidJobError(`${what}: invalid payload: ${path}${issue?.message ?? "invalid"}`, {
    cause: result.error,
  });
}
