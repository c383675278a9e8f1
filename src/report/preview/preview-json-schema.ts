// The shape of `undrift preview --output json`, as a zod schema: described
// here once, generated into schema/preview.schema.json, typing the renderer
// and parsing real outputs in tests. It reuses the scan report's parts, and
// its `drift` is a whole scan report of base.
import { z } from "zod";
import { previewWord, pruneSkipWord } from "../../model/preview-report.ts";
import {
  changeSchema,
  kubeObjectSchema,
  objectRefShape,
  problemSchema,
  scanReportSchema,
  sourceSchema,
  statsSchema,
} from "../report-json-schema.ts";

const count = z.number().int().nonnegative();

// The words come from the model, where they are spelled once.
const pruneGuards = Object.keys(pruneSkipWord) as [keyof typeof pruneSkipWord, ...(keyof typeof pruneSkipWord)[]];
const declaredActions = [previewWord.created, previewWord.configured, previewWord.unchanged] as const;
const pruneActions = [previewWord.deleted, "orphan", "keep", "refused"] as const satisfies readonly (
  | typeof previewWord.deleted
  | (typeof pruneSkipWord)[keyof typeof pruneSkipWord]
)[];

const previewResourceSchema = z
  .object({
    ...objectRefShape,
    action: z
      .enum(declaredActions)
      .describe(
        "What applying head does to it: create (the cluster lacks it: the scan's missing), change (the scan's drifted), unchanged (in-sync).",
      ),
    source: sourceSchema.optional(),
    changes: z
      .array(changeSchema)
      .describe("For change: the fields the apply changes (desired is head's value, live the cluster's)."),
    wouldBe: kubeObjectSchema
      .optional()
      .describe(
        "For create: the object as the apply would create it, with the server's defaults from a dry-run (Secret values masked).",
      ),
    note: z
      .string()
      .optional()
      .describe(
        "Why wouldBe is the rendered object rather than the server's answer (a dry-run refused, a new namespace).",
      ),
    fails: z
      .string()
      .optional()
      .describe(
        "The server's dry-run refused the object as invalid (400 or 422): applying head would fail, for this reason.",
      ),
  })
  .describe("One object head declares.");

const pruneEntrySchema = z
  .object({
    ...objectRefShape,
    action: z
      .enum(pruneActions)
      .describe(
        "delete: the merge prunes it; orphan: left running because prune is false or preview; keep: left running because it opts out, is untracked or still in use; refused: prune is true but a guard stops it.",
      ),
    reason: z.string().optional().describe("Why, for every action but delete."),
    guard: z
      .enum(pruneGuards)
      .optional()
      .describe("Which prune guard held it back, as a code for scripts (see docs/report.md)."),
  })
  .describe("A live object of the target's tracking set that head no longer declares.");

export const previewReportSchema = z
  .object({
    target: z.string().describe("The target's name in head's .github/undrift.yml."),
    cluster: z.string().describe("The cluster the target is bound to."),
    base: z.string().describe("Commit SHA of --base (the ref as given when no SHA is known)."),
    head: z.string().describe("Commit SHA of --head."),
    status: z
      .enum(["previewed", "render-failed", "failed"])
      .describe(
        "previewed: head rendered and was compared with the cluster; render-failed: head did not render (error says where); failed: the cluster could not be read (error says why).",
      ),
    error: z
      .object({
        message: z.string().describe("What went wrong, in one line."),
        file: z.string().optional().describe("The file of head that failed to render, relative to the repository."),
        line: count.optional().describe("Its line, from 1, when known."),
      })
      .optional()
      .describe("Why there is no preview, when status is not previewed."),
    summary: z
      .object({
        create: count,
        change: count,
        unchanged: count,
        prune: count.describe("Objects the merge would delete."),
        orphan: count,
        keep: count,
        refused: count.describe("Prunes a guard refuses."),
        drift: count.describe(
          "Drifted, missing and orphaned objects of the base scan: how far the cluster already is.",
        ),
      })
      .describe("How many resources and prune entries have each action, and the drift of base."),
    resources: z.array(previewResourceSchema).describe("Every object head declares, in render order."),
    prune: z.array(pruneEntrySchema).describe("Live tracked objects head no longer declares."),
    pruneRefused: z
      .string()
      .optional()
      .describe("When a guard refused the whole prune (an empty render, over maxPrunePercent): its reason, once."),
    drift: scanReportSchema
      .optional()
      .describe(
        "A scan of base against the cluster, in the scan report's shape: the drift the cluster already has. Absent when the target is new in head, or when baseError says why.",
      ),
    baseError: z.string().optional().describe("Why base could not be scanned (its config or render fails, ...)."),
    problems: z.array(problemSchema).describe("What the head scan could not compare."),
    stats: statsSchema
      .optional()
      .describe(
        "As the scan's: objects counts resources and prune entries, desired what head declares; requests, dryRuns and durationMs cover both scans and the dry-run creates.",
      ),
  })
  .meta({ title: "undrift preview report (undrift preview --output json)" });

export type PreviewReportJson = z.input<typeof previewReportSchema>;
