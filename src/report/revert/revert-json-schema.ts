// The shape of `undrift revert --output json` (the revert result as the
// command prints it), as a zod schema: described once, generated into
// schema/revert.schema.json, and parsing real outputs in tests.
import { z } from "zod";
import { actions, type RevertResult, type WaitMode } from "../../model/change-set.ts";
import type { HealthStatus } from "../../model/health.ts";
import { pruneSkipWord } from "../../model/preview-report.ts";
import { objectRefShape, problemSchema } from "../report-json-schema.ts";

const count = z.number().int().nonnegative();
const healthStatuses = ["healthy", "not-ready", "failed", "timed-out"] as const satisfies readonly HealthStatus[];
const waitModes = ["all", "dependencies", "none"] as const satisfies readonly WaitMode[];
const pruneGuards = Object.keys(pruneSkipWord) as [keyof typeof pruneSkipWord, ...(keyof typeof pruneSkipWord)[]];
const [firstAction, ...otherActions] = actions;

const recordSchema = z
  .object({
    ...objectRefShape,
    action: z
      .enum([firstAction!, ...otherActions])
      .describe(
        "created, configured, unchanged: what the apply did to a declared object; deleted: pruned, and gone; deleting: pruned, but still there, held by its finalizers or grace period (reason says what holds it); skipped: left alone on purpose (reason, guard); failed: the API server refused it (reason).",
      ),
    reason: z.string().optional().describe("Why it was skipped or failed, or a note on how it was done."),
    guard: z.enum(pruneGuards).optional().describe("For a skipped orphan: which prune guard held it back."),
    changes: z.array(z.string()).optional().describe("JSON pointers of the fields the apply changes."),
    takenFrom: z
      .array(z.string())
      .optional()
      .describe("Managers whose hand-made fields passed to undrift's field manager before the apply."),
    conflicts: z
      .array(
        z.object({
          field: z.string().describe("The field as the API server prints it."),
          manager: z.string().describe("The manager that owns it."),
          subresource: z.string().optional(),
        }),
      )
      .optional()
      .describe("Fields the apply was refused for, with their owners."),
    health: z
      .object({
        status: z
          .enum(healthStatuses)
          .describe(
            "healthy; not-ready (may still get there); failed (will not without a change); timed-out (waited, never got there).",
          ),
        message: z.string().optional().describe("Why it is not healthy."),
        waited: z.boolean().describe("Whether undrift waited for it (--wait, or a CRD or Namespace others need)."),
      })
      .optional()
      .describe("How the object stands after the apply; absent after a dry run."),
  })
  .describe("One object's line: names and field paths only, never a value.");

export const revertResultSchema = z
  .object({
    target: z.string().describe("The target's name."),
    revision: z.string().describe("The revision applied, as the scan reports it (commit SHA or working-tree)."),
    dryRun: z.boolean().describe("True with --dry-run: the server's dry-run, nothing written."),
    interrupted: z
      .literal(true)
      .optional()
      .describe(
        "Present when Ctrl-C or SIGTERM stopped the revert: the records say what was applied before (exit 130).",
      ),
    wait: z
      .enum(waitModes)
      .describe("What the revert waited for: all (--wait), dependencies (the default: CRDs, Namespaces), none."),
    summary: z
      .object(Object.fromEntries(actions.map((a) => [a, count])) as Record<(typeof actions)[number], typeof count>)
      .describe("How many resources have each action."),
    resources: z
      .array(recordSchema)
      .describe("Applied objects in dependency order, then the pruned ones, then the orphans held back."),
    problems: z.array(problemSchema).describe("What the scan before the apply could not compare."),
    stats: z
      .object({
        requests: count.describe("HTTP requests sent to the API server, the scan's included."),
        durationMs: count.describe("Wall time of the whole revert, in milliseconds."),
      })
      .describe("What the revert cost."),
  })
  .meta({ title: "undrift revert result (undrift revert --output json)" });

// The command prints the RevertResult itself: this type fails to compile when the two part ways.
type Printed<T extends z.input<typeof revertResultSchema>> = T;
export type RevertResultJson = Printed<RevertResult>;
