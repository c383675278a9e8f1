// Field types that several parts of the repository config share.
import { z } from "zod";
import { describeValue } from "./human-error-map.ts";
import { DURATION_PATTERN, parseDuration } from "./parse-duration.ts";

/** The label key of the default tracking selector, `undrift.dev/target=<target name>`. */
export const DEFAULT_TRACKING_LABEL = "undrift.dev/target";

/** A DNS-1123 label, as Kubernetes names namespaces; also the shape of target names. */
export const dnsLabel = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, {
    error: (issue) =>
      `expected lowercase letters, digits and "-", starting and ending with a letter or digit, got "${String(issue.input)}"`,
  });

/** The name of a cluster in the server's registry (a target's or a discover entry's `cluster`). */
export const clusterName = z
  .string()
  .min(1)
  // An address is refused without being repeated: it may carry a user and password, and the error is posted.
  .regex(/^(?![A-Za-z][A-Za-z0-9+.-]*:\/\/)/, {
    message: "expected the name of a cluster in the server's registry, not an address (which may carry credentials)",
  })
  .describe("Name of a cluster in the server's cluster registry; never credentials.");

/** Kubernetes refuses a field manager longer than this (apimachinery's validation). */
export const MAX_FIELD_MANAGER_LENGTH = 128;

/** What undrift does about drift. */
export const modeSchema = z.enum(["warn", "codify", "revert", "heal"]);

/** What undrift does about orphaned objects; YAML's true and false, or the string preview. */
export const pruneSchema = z.literal([false, "preview", true]);

/** A duration string such as `30s`, `15m` or `1h30m`, with a default, a floor and a ceiling. */
export function duration(options: {
  fallback: string;
  minimumMs: number;
  minimumText: string;
  maximumMs: number;
  maximumText: string;
}) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? undefined
          : `expected a duration such as 30s, 15m or 1h30m, got ${describeValue(issue.input)}`,
    })
    .regex(DURATION_PATTERN, {
      error: (issue) => `expected a duration such as 30s, 15m or 1h30m, got "${String(issue.input)}"`,
    })
    .superRefine((value, ctx) => {
      const ms = parseDuration(value);
      if (ms !== undefined && ms < options.minimumMs) {
        ctx.addIssue({
          code: "custom",
          message: `expected at least ${options.minimumText}, got "${value}"`,
          input: value,
        });
      }
      if (ms !== undefined && ms > options.maximumMs) {
        ctx.addIssue({
          code: "custom",
          message: `expected at most ${options.maximumText}, got "${value}"`,
          input: value,
        });
      }
    })
    .default(options.fallback);
}
