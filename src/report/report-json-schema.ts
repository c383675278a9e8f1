// The shape of `undrift scan --output json`, as a zod schema: the one place the
// report's fields are described. schema/report.schema.json is generated from it
// (`npm run schema`), renderJson is typed by it, and tests parse real outputs
// with it. Objects are open in the JSON Schema, since later versions may add
// fields (never rename or remove one); the tests' parse proves no field goes
// undescribed. Only types leave this file for the renderers, so a scan never loads it.
import { z } from "zod";

const count = z.number().int().nonnegative();

/** Which object: the same four fields lead every object of every output. */
export const objectRefShape = {
  apiVersion: z.string().describe("The object's apiVersion, as Git declares it (or as the live object has it)."),
  kind: z.string().describe("The object's kind."),
  namespace: z.string().optional().describe("Its namespace; absent for a cluster-scoped object."),
  name: z.string().describe("Its metadata.name."),
};

export const sourceSchema = z
  .object({
    file: z.string().describe("Path of the manifest, relative to the repository (`--repo`)."),
    document: count.describe("Index of the YAML document in that file, from 0."),
  })
  .describe("Where Git declares the object; absent for an orphan, which Git no longer declares.");

export const actorSchema = z
  .object({
    username: z
      .string()
      .describe("Who made the write, as the API server authenticated them: alice, system:serviceaccount:ci:deployer."),
    groups: z.array(z.string()).describe("Their groups, as the API server authenticated them."),
    serviceAccount: z.string().optional().describe("namespace:name, when the username is a service account's."),
    userAgent: z
      .string()
      .optional()
      .describe(
        "The client's User-Agent; absent from the admission recorder's records, which the API server sends none of.",
      ),
    sourceIP: z.string().optional().describe("Where the request came from, when the record has it (audit events do)."),
    at: z.string().describe("When the cluster recorded the write (RFC 3339)."),
    confidence: z
      .enum(["exact", "likely"])
      .describe(
        "exact: the record names the field's manager (or a user agent that fits it) and says its write changed that field (a deletion: the object's newest record is it); likely: the record does not say both, and its writer is the one person writing near the field's time.",
      ),
  })
  .describe(
    "The person or service account whose write produced the live field, from the cluster's own records of writes (undrift's admission recorder or audit webhook backend, when the scan reads the same Redis); absent when no record fits, never guessed.",
  );

export const changeSchema = z
  .object({
    path: z.string().describe("JSON pointer into the object (RFC 6901), e.g. /spec/replicas or /data/LOG_LEVEL."),
    desired: z
      .unknown()
      .optional()
      .describe("What Git sets there; absent when Git does not set the field (it would be removed)."),
    live: z.unknown().optional().describe("What the cluster has there; absent when the live object lacks the field."),
    manager: z
      .string()
      .optional()
      .describe("The field manager (metadata.managedFields) that last wrote the live field, e.g. kubectl-patch."),
    changedAt: z.string().optional().describe("When that manager last wrote it (its managedFields time, RFC 3339)."),
    actor: actorSchema.optional(),
  })
  .describe("One field that differs. A Secret's data and stringData values are masks: ***, *** (before), *** (after).");

export const problemSchema = z
  .object({
    kind: z.string().describe("The kind that could not be read or compared."),
    group: z.string().describe("Its API group; empty for the core group."),
    namespace: z.string().optional().describe("The namespace, when the problem is one object's or one namespace's."),
    name: z.string().optional().describe("The object's name, when the problem is one object's."),
    message: z.string().describe("Why, in one line (the API server's answer where there is one)."),
  })
  .describe("A kind or object that could not be compared; the rest of the scan went on.");

/** A Kubernetes object as JSON: apiVersion, kind and metadata named, every other field kept. */
export const kubeObjectSchema = z
  .object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
  })
  .loose();

export const statsSchema = z
  .object({
    objects: count.describe("The objects the report lists: the length of resources (orphans included)."),
    requests: count.describe("HTTP requests sent to the API server (discovery, LISTs, GETs, dry-runs)."),
    durationMs: count.describe("Wall time from reading the config to the report, in milliseconds."),
    dryRuns: count.describe("Server-side dry-run applies sent to confirm drift (or, in a preview, to show creates)."),
    desired: count.describe(
      "The objects Git declares for the target, compared or not (a kind that could not be read leaves its objects out of resources, with a problem).",
    ),
    cache: z
      .object({
        watched: count.describe("Kinds answered from the worker's current watches of the cluster."),
        listed: count.describe(
          "Kinds LISTed because no watch of them was current (the cache could not be trusted) or the identity may not watch them.",
        ),
        dryRunsReused: count.describe(
          "Dry-runs not sent: an earlier scan's answer to the same request against the same state (resourceVersion) of the live object was kept. Not counted in dryRuns.",
        ),
      })
      .optional()
      .describe("Only in the app's worker, which keeps watches of each cluster it serves."),
  })
  .describe("What the scan cost and how many objects it judged; absent when no scan ran.");

export const resourceStatuses = ["in-sync", "drifted", "missing", "orphaned"] as const;

const resourceSchema = z
  .object({
    ...objectRefShape,
    status: z
      .enum(resourceStatuses)
      .describe(
        "in-sync: applying Git changes nothing; drifted: both exist and applying Git would change live; missing: Git declares it, the cluster lacks it; orphaned: live carries the target's tracking label but Git no longer declares it.",
      ),
    source: sourceSchema.optional(),
    changes: z.array(changeSchema).describe("The fields that differ, for a drifted object; empty otherwise."),
    leftAlone: z
      .string()
      .optional()
      .describe(
        "For an object in sync because its reconciler is told to leave it alone: the label or annotation that says so, on the Git or the live side (annotation kustomize.toolkit.fluxcd.io/reconcile: disabled; Flux's ssa: Ignore or, once the object exists, IfNotPresent; helm.toolkit.fluxcd.io/driftDetection: disabled). Its fields are not compared, and it is never missing, applied, codified or pruned.",
      ),
    deletedBy: actorSchema
      .optional()
      .describe(
        "For a missing object only: who deleted it, when the cluster's newest record of the object (read as for changes[].actor) is its deletion; absent otherwise, never guessed.",
      ),
    wouldBe: kubeObjectSchema
      .optional()
      .describe(
        "For a missing object only: the object applying Git would create, as Git declares it (a Secret's values masked as ***).",
      ),
  })
  .describe("One object the scan judged.");

export const scanReportSchema = z
  .object({
    target: z.string().describe("The target's name in .github/undrift.yml."),
    revision: z
      .string()
      .describe(
        "The commit SHA of --repo's HEAD, or working-tree when the tree has uncommitted changes or is no git checkout.",
      ),
    reconciler: z
      .object({
        from: z.enum(["flux", "argo"]).describe("The reconciler: Flux or Argo CD."),
        kind: z.string().describe("Its object's kind: Kustomization."),
        namespace: z.string().describe("Its object's namespace."),
        name: z.string().describe("Its object's name."),
        suspended: z
          .boolean()
          .optional()
          .describe("true when the object tells its reconciler to stand still (Flux spec.suspend): drift is expected."),
        lastAppliedRevision: z
          .string()
          .optional()
          .describe(
            "The revision the reconciler says it last applied (Flux status.lastAppliedRevision), e.g. main@sha1:<sha>.",
          ),
      })
      .optional()
      .describe(
        "For a target discovered from a reconciler's object (discover:): that object; absent for a configured target.",
      ),
    summary: z
      .object({ inSync: count, drifted: count, missing: count, orphaned: count })
      .describe("How many resources have each status."),
    resources: z.array(resourceSchema).describe("Every object judged: Git's in render order, then the orphans."),
    fingerprint: z
      .string()
      .describe(
        "Stable hash of the drift itself (objects, statuses, paths, masked values; never times): equal fingerprints, same drift.",
      ),
    problems: z.array(problemSchema).describe("What could not be compared; empty when everything was."),
    stats: statsSchema.optional(),
  })
  .meta({ title: "undrift scan report (undrift scan --output json)" });

export type ScanReportJson = z.input<typeof scanReportSchema>;
