// One target of `.github/undrift.yml`: a folder of the repository bound to a
// cluster, with its policy. Every field is described for the JSON Schema.
import { posix } from "node:path";
import { z } from "zod";
import {
  clusterName,
  DEFAULT_TRACKING_LABEL,
  dnsLabel,
  duration,
  MAX_FIELD_MANAGER_LENGTH,
  modeSchema,
  pruneSchema,
} from "./field-schemas.ts";
import { jqPathProblem } from "./jq-runner.ts";
import { normalizeRepoPath } from "./normalize-repo-path.ts";
import { parseDuration } from "./parse-duration.ts";
import { hasPositiveTerm, LabelSelectorError, parseLabelSelector } from "./parse-label-selector.ts";
import { ignoreRuleSchema, objectRuleSchema } from "./rule-schemas.ts";

/**
 * Who counts as a person editing by hand. When a client names no field manager
 * the API server uses its user agent up to the first "/": kubectl names its own
 * (`kubectl-edit`, `kubectl-patch`, `kubectl-client-side-apply`), browser
 * consoles show up as `Mozilla`, and desktop consoles under their own names.
 * Controllers and CI appliers name themselves, so they are not in this list.
 */
export const DEFAULT_HUMAN_MANAGERS: readonly string[] = [
  "kubectl*",
  "k9s",
  "Mozilla",
  "kubernetes-dashboard",
  "dashboard",
  "headlamp",
  "lens",
  "OpenLens",
  "rancher",
];

/** The built-in noise filters, each on unless a target switches it off. */
export const NOISE_FILTERS = {
  "kubectl-restarted-at":
    "the kubectl.kubernetes.io/restartedAt pod template annotation `kubectl rollout restart` sets",
  "deployment-revision": "the deployment.kubernetes.io/revision annotation the Deployment controller sets",
  "last-applied-configuration":
    "the kubectl.kubernetes.io/last-applied-configuration annotation client-side apply writes",
  "change-cause": "the kubernetes.io/change-cause annotation `kubectl --record` writes",
  "namespace-name-label": "the kubernetes.io/metadata.name label the API server sets on every Namespace",
} as const;

const noiseFilters = z
  .strictObject(
    Object.fromEntries(
      Object.entries(NOISE_FILTERS).map(([name, what]) => [
        name,
        z.boolean().default(true).describe(`Ignore ${what}. Default true.`),
      ]),
    ) as Record<keyof typeof NOISE_FILTERS, z.ZodDefault<z.ZodBoolean>>,
  )
  .prefault({})
  .describe("Built-in noise filters to switch off (false); all are on by default.");

const selector = z.string().superRefine((value, ctx) => {
  try {
    // Refused like the empty selector: the target would track, report as orphans and codify most of the cluster.
    if (!hasPositiveTerm(parseLabelSelector(value))) {
      const message = `invalid label selector: "${value}" has only negative terms (!k, k!=v), which match most of the cluster; a selector needs at least one positive term (k=v or k)`;
      ctx.addIssue({ code: "custom", message, input: value });
    }
  } catch (error) {
    if (!(error instanceof LabelSelectorError)) throw error;
    ctx.addIssue({ code: "custom", message: `invalid label selector: ${error.message}`, input: value });
  }
});

const repoPath = z
  .string()
  .min(1)
  .transform((value, ctx) => {
    const result = normalizeRepoPath(value);
    if (result.ok) return result.path;
    ctx.addIssue({ code: "custom", message: result.problem, input: value });
    return z.NEVER;
  });

const targetFields = z.strictObject({
  name: dnsLabel.describe("Name of the target, unique in the file: lowercase letters, digits and '-', at most 63."),
  cluster: clusterName,
  path: repoPath.describe("Folder of the repository to render, relative to its root ('.' for the root)."),
  render: z
    .enum(["auto", "plain", "kustomize", "helm"])
    .default("auto")
    .describe(
      "How the folder becomes objects. auto: kustomize with a kustomization file, helm with Chart.yaml, else plain YAML.",
    ),
  namespace: dnsLabel.optional().describe("Namespace for namespaced objects that name none."),
  mode: modeSchema
    .default("warn")
    .describe(
      "warn: report only; codify: PR that edits Git to match the cluster; revert: PR whose merge re-applies Git; heal: re-apply at once.",
    ),
  prune: pruneSchema
    .default(false)
    .describe(
      "Live objects with the tracking label that Git no longer declares. false: report them; preview: list what would be deleted; true: delete them.",
    ),
  force: z
    .boolean()
    .default(false)
    .describe("Take fields other field managers own when applying (server-side apply force)."),
  fieldManager: z
    .string()
    .min(1)
    .max(MAX_FIELD_MANAGER_LENGTH)
    .default("undrift")
    .describe(
      `The applier whose owned fields Git must keep: undrift, or e.g. kustomize-controller beside Flux; at most ${MAX_FIELD_MANAGER_LENGTH} characters.`,
    ),
  humanManagers: z
    .array(z.string().min(1))
    .default([...DEFAULT_HUMAN_MANAGERS])
    .describe(
      `Glob patterns of field managers that are people: fields they add by hand are drift. Replaces the default: ${DEFAULT_HUMAN_MANAGERS.join(", ")}.`,
    ),
  tracking: z
    .strictObject({
      selector: selector
        .optional()
        .describe(
          `Equality-based label selector (k=v, k!=v, k, !k) with at least one positive term (k=v or k). Default ${DEFAULT_TRACKING_LABEL}=<target name>, which undrift adds to every object it applies.`,
        ),
    })
    .optional()
    .describe("How the live objects of the target are found; only they can be orphaned and pruned."),
  maxPrunePercent: z
    .number()
    .min(0)
    .max(100)
    .default(30)
    .describe("Never prune more than this share of the tracked objects at once without --force-prune."),
  timeout: duration({
    fallback: "5m",
    minimumMs: 1000,
    minimumText: "1s",
    maximumMs: 24 * 3_600_000,
    maximumText: "24h",
  }).describe("Health wait after an apply, e.g. 5m; at most 24h."),
  ignoreDifferences: z
    .array(ignoreRuleSchema)
    .prefault([])
    .describe("Differences that are never drift, in Argo CD's shape."),
  respectIgnoreDifferences: z
    .boolean()
    .default(true)
    .describe(
      "Keep the live values of fields ignoreDifferences exempts when revert, heal or a merged revert PR applies an existing object (Argo CD's RespectIgnoreDifferences). false applies all of Git. Default true.",
    ),
  noiseFilters,
  helm: z
    .strictObject({
      releaseName: z.string().min(1).optional().describe("Release name; default the target name."),
      valuesFiles: z
        .array(z.string().min(1))
        .optional()
        .describe("Values files, relative to the target's path, applied in order."),
    })
    .optional()
    .describe("Helm settings, for render: helm (or auto finding a chart)."),
  rules: z
    .array(objectRuleSchema)
    .default([])
    .describe("Per-object overrides of mode and prune; the first match wins."),
});

/** A target as written, checked, then with its computed defaults filled in. */
export const targetSchema = targetFields
  .superRefine((target, ctx) => {
    // Values files may sit beside the target (../values), but not outside the repository.
    target.helm?.valuesFiles?.forEach((file, index) => {
      const path = ["helm", "valuesFiles", index];
      if (posix.isAbsolute(file)) {
        const message = `expected a path relative to the target's folder, got "${file}"`;
        ctx.addIssue({ code: "custom", path, message, input: file });
      } else if (!normalizeRepoPath(posix.join(target.path, file)).ok) {
        ctx.addIssue({ code: "custom", path, message: `"${file}" leaves the repository`, input: file });
      }
    });
    // Compiled here, so a typo fails where it is written, not after the cluster has been reached.
    target.ignoreDifferences.forEach((rule, index) => {
      for (const expression of rule.jqPathExpressions) {
        const message = jqPathProblem(expression);
        // The expression itself names the item, as the message did before it was compiled here.
        const path = ["ignoreDifferences", index, "jqPathExpressions"];
        if (message) ctx.addIssue({ code: "custom", path, message: `${expression}: ${message}`, input: expression });
      }
    });
  })
  .transform(({ tracking, helm, ...target }) => ({
    ...target,
    timeoutMs: parseDuration(target.timeout)!,
    tracking: { selector: tracking?.selector ?? `${DEFAULT_TRACKING_LABEL}=${target.name}` },
    helm: { releaseName: helm?.releaseName ?? target.name, valuesFiles: helm?.valuesFiles ?? [] },
  }))
  .describe("A folder of this repository bound to a cluster, with what to do about its drift.");
