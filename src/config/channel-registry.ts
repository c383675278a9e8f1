// The notification channels of the server, in the cluster registry's file
// (`channels:` beside `clusters:`): where each channel posts and which
// repositories may name it. Webhook URLs carry their own credentials, so they
// live here, never in a repository; a URL or a signing secret may be written
// inline, or read from an environment variable or a file at send time (so a
// rotated secret needs no restart). Nothing here is ever logged.
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UndriftError } from "../model/undrift-error.ts";

const repositoryPattern = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/([A-Za-z0-9._-]+|\*)$/, {
  error: (issue) => `expected owner/name or owner/*, got "${String(issue.input)}"`,
});

const sourceError = (issue: { input?: unknown }) =>
  issue.input === undefined ? "required field is missing" : "expected a value, {env: NAME} or {file: path}";

/** A secret value: written inline, or the name of an environment variable, or a file holding it. */
const secretSource = z.union(
  [
    z.string().min(1),
    z.strictObject({ env: z.string().min(1).describe("An environment variable of the worker holding it.") }),
    z.strictObject({
      file: z.string().min(1).describe("A file holding it; relative paths are from the registry file."),
    }),
  ],
  { error: sourceError },
);

// An inline URL is checked when the file loads; its value is never echoed, as it holds the webhook's token.
const httpUrl = z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
  error: "expected an http:// or https:// URL (its value is not shown)",
});
const urlSource = z.union([httpUrl, secretSource.options[1], secretSource.options[2]], {
  error: (issue) =>
    typeof issue.input === "string"
      ? "expected an http:// or https:// URL (its value is not shown)"
      : sourceError(issue),
});

const common = {
  url: urlSource.describe("The channel's webhook URL, inline or as {env: NAME} or {file: path}."),
  repositories: z
    .array(repositoryPattern)
    .describe("Repositories allowed to notify the channel: owner/name or owner/*."),
};

const channelSchema = z.discriminatedUnion(
  "kind",
  [
    z.strictObject({ kind: z.literal("slack").describe("A Slack incoming webhook (Block Kit)."), ...common }),
    z.strictObject({
      kind: z.literal("teams").describe("A Microsoft Teams workflow webhook (Adaptive Card)."),
      ...common,
    }),
    z.strictObject({
      kind: z.literal("webhook").describe("Any HTTPS endpoint: JSON signed with HMAC-SHA256."),
      ...common,
      secret: secretSource.describe("The HMAC-SHA256 key of X-Undrift-Signature-256, inline or as {env} or {file}."),
    }),
  ],
  { error: "expected kind: slack, teams or webhook" },
);

/** The `channels:` section: channel names to where they post. */
export const channelsSchema = z
  .record(z.string().min(1), channelSchema)
  .describe("Notification channels by the name repositories use in `notifications`.");

/** One channel as parsed. */
export type ChannelEntry = z.output<typeof channelSchema>;
/** slack | teams | webhook */
export type ChannelKind = ChannelEntry["kind"];
/** Where a secret is read from. */
export type SecretSource = z.output<typeof secretSource>;

/** A repository named a channel it may not use, or one that does not exist; the config must change. */
export class ChannelAccessError extends UndriftError {
  override name = "ChannelAccessError";
  readonly permanent = true;
}

/** A channel's URL or secret could not be read (variable unset, file missing); an operator must fix it. */
export class ChannelSecretError extends UndriftError {
  override name = "ChannelSecretError";
  readonly permanent = true;
}

/** The channel `repoFullName` may use as `name`; throws ChannelAccessError otherwise. */
export function channelFor(
  channels: Record<string, ChannelEntry> | undefined,
  name: string,
  repoFullName: string,
): ChannelEntry {
  const entry = channels && Object.hasOwn(channels, name) ? channels[name] : undefined;
  if (!entry) throw new ChannelAccessError(`channel "${name}" is not in the server's channels`);
  const [owner, repo] = repoFullName.toLowerCase().split("/");
  const allowed = entry.repositories.some((pattern) => {
    const [o, n] = pattern.toLowerCase().split("/");
    return o === owner && (n === "*" || n === repo);
  });
  if (!allowed) throw new ChannelAccessError(`repository ${repoFullName} may not use channel "${name}"`);
  return entry;
}

/**
 * The value of a secret source, read now. `what` names it in errors (`channel "ops" url`); the value never
 * appears in one. Relative files were resolved against the registry's folder when it was loaded.
 */
export async function readSecret(
  source: SecretSource,
  what: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (typeof source === "string") return source;
  if ("env" in source) {
    const value = env[source.env]?.trim();
    if (!value) throw new ChannelSecretError(`${what}: environment variable ${source.env} is not set`);
    return value;
  }
  try {
    const value = (await readFile(source.file, "utf8")).trim();
    if (!value) throw new ChannelSecretError(`${what}: ${source.file} is empty`);
    return value;
  } catch (error) {
    if (error instanceof ChannelSecretError) throw error;
    throw new ChannelSecretError(`${what}: cannot read ${source.file} (${(error as NodeJS.ErrnoException).code})`, {
      cause: error,
    });
  }
}
