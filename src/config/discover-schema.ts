// `discover:` in `.github/undrift.yml`: read targets from the reconcilers a
// cluster already runs (Flux's Kustomizations, Argo CD's Applications) whose
// source is this repository, instead of declaring each one again. What the
// reconciler's object says (path, namespace, overlays, prune, tracking) is the
// target; the entry gives only what undrift decides on its own: the mode.
import { z } from "zod";
import { clusterName, modeSchema, pruneSchema } from "./field-schemas.ts";

export const discoverEntrySchema = z
  .strictObject({
    cluster: clusterName,
    flux: z
      .boolean()
      .default(false)
      .describe("Flux Kustomizations whose source (GitRepository) is this repository become targets."),
    argo: z.boolean().default(false).describe("Argo CD Applications whose source is this repository become targets."),
    mode: modeSchema
      .default("warn")
      .describe("Mode of every discovered target; a targets: entry of the same name overrides it."),
    prune: pruneSchema
      .optional()
      .describe(
        "Prune setting of every discovered target; default: what the reconciler's object says (Flux spec.prune, Argo CD's automated prune), as preview.",
      ),
  })
  .refine((entry) => entry.flux || entry.argo, {
    message: "names no reconciler: set flux: true, argo: true or both",
  })
  .describe("A cluster whose Flux or Argo CD objects name this repository as their source.");

export const discoverSchema = z
  .array(discoverEntrySchema)
  .min(1, { error: "needs at least one cluster" })
  .superRefine((list, ctx) => {
    if (!Array.isArray(list)) return;
    const seen = new Map<string, number>();
    list.forEach((entry, index) => {
      const cluster: unknown = (entry as { cluster?: unknown } | null)?.cluster;
      if (typeof cluster !== "string") return;
      const first = seen.get(cluster);
      if (first === undefined) seen.set(cluster, index);
      else
        ctx.addIssue({
          code: "custom",
          path: [index, "cluster"],
          message: `"${cluster}" is already discovered by discover[${first}]`,
          input: cluster,
        });
    });
  })
  .describe("Clusters whose reconcilers' objects become targets (Flux, Argo CD).");

/** One `discover:` entry as parsed. */
export type DiscoverEntry = z.output<typeof discoverEntrySchema>;
