// The shape of `undrift codify --output json`, as a zod schema: described
// once, generated into schema/codify.schema.json, typing the renderer and
// parsing real outputs in tests.
import { z } from "zod";
import type { DriftStatus } from "../../model/types.ts";
import { objectRefShape, problemSchema } from "../report-json-schema.ts";

const driftStatuses = ["drifted", "missing", "orphaned"] as const satisfies readonly DriftStatus[];

export const codifyResultSchema = z
  .object({
    target: z.string().describe("The target's name."),
    dryRun: z.boolean().describe("True with --dry-run: nothing was written, and diff shows what would be."),
    filesChanged: z
      .array(z.string())
      .describe("Files codify changed (or would), relative to the repository: edited, added or removed."),
    codified: z
      .array(
        z.object({
          ...objectRefShape,
          status: z
            .enum(driftStatuses)
            .describe(
              "What was drift: a drifted object was edited, a missing one removed from Git, an orphan added as a manifest.",
            ),
          file: z.string().describe("The file its edit went to (the first, when there are several)."),
        }),
      )
      .describe("Objects whose drift is now in Git, each proved by rendering again."),
    notCodified: z
      .array(z.object({ ...objectRefShape, reason: z.string().describe("Why not, for a person.") }))
      .describe(
        "Every other drifted object, with why (a Secret's value, helm output, an edit the render did not prove).",
      ),
    problems: z
      .array(problemSchema)
      .describe("What the scan could not compare: its drift is unknown, so not codified."),
    diff: z.string().optional().describe("With --dry-run only: the unified diff of every file codify would change."),
  })
  .meta({ title: "undrift codify result (undrift codify --output json)" });

export type CodifyResultJson = z.input<typeof codifyResultSchema>;
