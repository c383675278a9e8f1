// The `notifications` list of `.github/undrift.yml`: which of the server's
// channels (the cluster registry's `channels:`) hear which events. A
// repository only names a channel; where it posts stays on the server.
import { z } from "zod";
import { duration } from "./field-schemas.ts";
import { parseDuration } from "./parse-duration.ts";

/** What a channel can be told. */
export const NOTIFY_EVENTS = ["drift", "resolved", "heal", "fight", "failing", "prune-refused"] as const;
/** drift | resolved | heal | fight | failing | prune-refused */
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

const notificationSchema = z
  .strictObject({
    channel: z.string().min(1).describe("A channel name from the server's `channels:` (ask its operator)."),
    events: z
      .array(z.enum(NOTIFY_EVENTS))
      .min(1, { error: "needs at least one event" })
      .default(["drift", "resolved", "fight", "failing"])
      .describe(
        "What to send: drift (new drift found), resolved (it is gone), heal (heal applied Git), fight (heal stopped for a field a program keeps changing), failing (the scan fails), prune-refused (an orphan was not pruned).",
      ),
    remind: duration({
      fallback: "0s",
      minimumMs: 0,
      minimumText: "0s",
      maximumMs: 168 * 3_600_000,
      maximumText: "168h",
    })
      .superRefine((value, ctx) => {
        const ms = parseDuration(value);
        if (ms !== undefined && ms > 0 && ms < 3_600_000) {
          ctx.addIssue({
            code: "custom",
            message: `expected 0s (no reminder) or at least 1h, got "${value}"`,
            input: value,
          });
        }
      })
      .describe("Remind the channel while the same drift stays unresolved, e.g. 24h; 0s (the default) never reminds."),
  })
  .transform((entry) => ({ ...entry, remindMs: parseDuration(entry.remind)! }));

/** The `notifications` list: empty (the default) sends nothing. */
export const notificationsSchema = z
  .array(notificationSchema)
  .default([])
  .describe("Channels of the server to tell about this repository's drift, with the events each wants.");

/** One entry of `notifications`, with `remindMs` beside `remind`. */
export type NotificationConfig = z.output<typeof notificationSchema>;
