// The schema of `.github/undrift.yml`. The parsed output has every default
// filled in, and keeps each duration as written beside its milliseconds
// (`schedule` and `scheduleMs`): plain values that survive a job payload.
import { z } from "zod";
import { discoverSchema } from "./discover-schema.ts";
import { duration } from "./field-schemas.ts";
import { notificationsSchema } from "./notification-schema.ts";
import { parseDuration } from "./parse-duration.ts";
import type { ignoreRuleSchema, objectRuleSchema } from "./rule-schemas.ts";
import type { FluxRender, TargetOrigin } from "./target-origin.ts";
import { targetSchema } from "./target-schema.ts";

const targets = z
  .array(targetSchema)
  .min(1, { error: "needs at least one target" })
  .superRefine(
    (list, ctx) => {
      if (!Array.isArray(list)) return;
      // Runs even when other fields of a target are wrong, so every duplicate is reported at once.
      const seen = new Map<string, number>();
      list.forEach((target, index) => {
        const name: unknown = (target as { name?: unknown } | null)?.name;
        if (typeof name !== "string") return;
        const first = seen.get(name);
        if (first === undefined) seen.set(name, index);
        else
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `"${name}" is already the name of targets[${first}]`,
            input: name,
          });
      });
    },
    { when: () => true },
  )
  .describe("The folders of this repository to compare with a cluster, one target each.");

const pullRequests = z
  .strictObject({
    labels: z.array(z.string().min(1)).default([]).describe("Labels to put on the pull requests undrift opens."),
    reviewers: z.array(z.string().min(1)).default([]).describe("Users or org/team names to request reviews from."),
  })
  .prefault({})
  .describe("Settings of the codify and revert pull requests.");

/** The schema of `.github/undrift.yml`; parse with loadConfig for messages with file and line. */
export const repoConfigSchema = z
  .strictObject({
    _extends: z
      .string()
      .min(1)
      .optional()
      .describe("Another repository's config to start from (Probot's _extends: repo, owner/repo or owner/repo:path)."),
    schedule: duration({
      fallback: "15m",
      minimumMs: 60_000,
      minimumText: "1m",
      // A week: a longer period is no schedule, and timers cannot hold more than about 24 days.
      maximumMs: 168 * 3_600_000,
      maximumText: "168h",
    }).describe("How often each target is scanned, e.g. 15m or 1h30m; at least 1m, at most 168h."),
    targets: targets.optional(),
    discover: discoverSchema.optional(),
    pullRequests,
    notifications: notificationsSchema,
  })
  .superRefine((config, ctx) => {
    // Said as the missing field always was; a config that discovers its targets needs none written.
    if (config.targets === undefined && config.discover === undefined)
      ctx.addIssue({ code: "custom", path: ["targets"], message: "required field is missing", input: undefined });
  })
  .transform(({ targets = [], discover = [], ...config }) => ({
    ...config,
    targets,
    discover,
    scheduleMs: parseDuration(config.schedule)!,
  }))
  .describe("undrift: finds where a Kubernetes cluster has drifted from this repository.");

/** `.github/undrift.yml` as parsed, with every default filled in. */
export type RepoConfig = z.output<typeof repoConfigSchema>;
/** `.github/undrift.yml` as a person may write it, defaults left out. */
export type RepoConfigInput = z.input<typeof repoConfigSchema>;
/**
 * One target: a folder of the repository bound to a cluster, with its policy; a discovered one (`discover:`) also
 * says which reconciler object it follows and, for a Flux Kustomization, what kustomize-controller adds to its render.
 */
export type TargetConfig = RepoConfig["targets"][number] & { origin?: TargetOrigin; flux?: FluxRender };
/** A difference that is never drift, in Argo CD's shape. */
export type IgnoreRule = z.output<typeof ignoreRuleSchema>;
/** A per-object override of mode and prune. */
export type ObjectRule = z.output<typeof objectRuleSchema>;
/** warn | codify | revert | heal */
export type Mode = TargetConfig["mode"];
/** false | "preview" | true */
export type PruneSetting = TargetConfig["prune"];
/** auto | plain | kustomize | helm */
export type RenderMode = TargetConfig["render"];
/** The names of the built-in noise filters. */
export type NoiseFilterName = keyof TargetConfig["noiseFilters"];
/** Labels and reviewers for undrift's pull requests. */
export type PullRequestsConfig = RepoConfig["pullRequests"];
