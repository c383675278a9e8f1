// The two kinds of per-object rule a target carries: differences to ignore
// (Argo CD's ignoreDifferences shape) and overrides of mode and prune.
import { z } from "zod";
import { modeSchema, pruneSchema } from "./field-schemas.ts";

// RFC 6901: "/" then tokens, where "~" only escapes as ~0 or ~1.
const jsonPointer = z.string().regex(/^(\/([^~]|~[01])*)+$/, {
  error: (issue) => `expected a JSON pointer such as /spec/replicas, got "${String(issue.input)}"`,
});

const LISTS = ["jsonPointers", "jqPathExpressions", "managedFieldsManagers"] as const;

/**
 * Where a rule is written, so that a jq expression timing out during a scan is
 * named as a load-time error names it (`<file>:<line>: <field>`). loadConfig sets
 * it from the text; config that came without text (Probot's merged `_extends`) has none.
 */
export interface RuleOrigin {
  file: string;
  /** `targets[0].ignoreDifferences[1]` */
  field: string;
  /** The line of each of the rule's jqPathExpressions, in order. */
  jqLines: number[];
}

/** A difference that is never drift. Selectors left out (or "*") match every object. */
export const ignoreRuleSchema = z
  .strictObject({
    group: z.string().optional().describe('API group of the objects, e.g. apps; "" is the core group.'),
    kind: z.string().min(1).optional().describe("Kind of the objects, e.g. Deployment."),
    name: z.string().min(1).optional().describe("Name of the object."),
    namespace: z.string().min(1).optional().describe("Namespace of the objects."),
    jsonPointers: z.array(jsonPointer).default([]).describe("Fields to ignore, as JSON pointers: /spec/replicas."),
    jqPathExpressions: z
      .array(z.string().min(1))
      .default([])
      .describe("Fields to ignore, as jq path expressions: .spec.template.spec.containers[].image."),
    managedFieldsManagers: z
      .array(z.string().min(1))
      .default([])
      .describe("Ignore every field these field managers own, e.g. kube-controller-manager."),
  })
  .superRefine((rule, ctx) => {
    if (LISTS.some((list) => rule[list].length > 0)) return;
    ctx.addIssue({ code: "custom", message: `needs at least one of ${LISTS.join(", ")}`, input: rule });
  })
  // Only widens the type: `origin` is never read from the file (the object is strict), loadConfig adds it.
  .transform((rule): typeof rule & { origin?: RuleOrigin } => rule)
  .describe("Differences to ignore for the matching objects; at least one of the three lists.");

/** A per-object override of the target's mode and prune; the first rule that matches wins. */
export const objectRuleSchema = z
  .strictObject({
    match: z
      .strictObject({
        kinds: z.array(z.string().min(1)).optional().describe("Kinds the object may have, e.g. [Role, RoleBinding]."),
        names: z.array(z.string().min(1)).optional().describe("Names the object may have."),
        namespaces: z.array(z.string().min(1)).optional().describe("Namespaces the object may be in."),
        labels: z
          .record(z.string(), z.string())
          .optional()
          .describe("Labels the object must all carry, with these values."),
      })
      .describe(
        "Which objects the rule applies to: all the given criteria must hold; an empty match takes every object.",
      ),
    mode: modeSchema.optional().describe("Mode for the matching objects instead of the target's."),
    prune: pruneSchema.optional().describe("Prune setting for the matching objects instead of the target's."),
  })
  .superRefine((rule, ctx) => {
    if (rule.mode !== undefined || rule.prune !== undefined) return;
    ctx.addIssue({ code: "custom", message: "needs mode or prune; otherwise the rule changes nothing", input: rule });
  })
  .describe("Objects that get another mode or prune setting than the target's.");
