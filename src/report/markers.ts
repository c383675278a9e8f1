// The texts undrift leaves on GitHub and how it finds them again: a hidden
// HTML comment marker at the top of an issue or PR body (the identity the
// idempotent writers look for, renovate's ensureComment style), GitHub's
// length limits, and the comments posted when drift goes away.
import { createHash } from "node:crypto";

/** Issue, pull request and comment bodies: GitHub refuses longer ones. */
export const bodyLimit = 65_536;
/** Check run output title, summary and text. */
export const checkRunTextLimit = 65_535;

/**
 * tracking: a target's tracking issue; pr: a drift pull request; preview: a part of a pull request's preview comment;
 * box: one checkbox of the tracking issue's dashboard (report/app/dashboard-boxes.ts); log: where its lines go.
 */
export type MarkerKind = "tracking" | "pr" | "preview" | "box" | "log";

// Values go inside an HTML comment and are split on spaces, so they must be plain tokens.
const tokenPattern = /^[A-Za-z0-9._/:@-]+$/;
const markerPattern = /<!-- undrift:([a-z-]+)((?: [a-zA-Z]+=[^\s]+)*) -->/g;

/** `<!-- undrift:pr target=infra mode=codify fingerprint=ab12 -->`; fields in the order given. */
export function formatMarker(kind: MarkerKind, fields: Record<string, string>): string {
  const parts = Object.entries(fields).map(([key, value]) => {
    if (!tokenPattern.test(value) || value.includes("--")) {
      throw new RangeError(`marker field ${key}: ${JSON.stringify(value)} cannot go into an HTML comment marker`);
    }
    return `${key}=${value}`;
  });
  return `<!-- undrift:${kind}${parts.map((p) => ` ${p}`).join("")} -->`;
}

/** The fields of the first marker of `kind` in `body`, or undefined when it carries none. */
export function readMarker(body: string | null | undefined, kind: MarkerKind): Record<string, string> | undefined {
  for (const match of (body ?? "").matchAll(markerPattern)) {
    if (match[1] !== kind) continue;
    const fields: Record<string, string> = {};
    for (const pair of (match[2] ?? "").trim().split(" ").filter(Boolean)) {
      const at = pair.indexOf("=");
      fields[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return fields;
  }
  return undefined;
}

/** Whether `body` carries a marker of `kind` whose fields include all of `fields` (target=infra does not match infra-2). */
export function hasMarker(body: string | null | undefined, kind: MarkerKind, fields: Record<string, string>): boolean {
  const found = readMarker(body, kind);
  return found !== undefined && Object.entries(fields).every(([k, v]) => found[k] === v);
}

/** The marker on the first line, then the body, capped so the whole stays within `maxLength` and the marker survives. */
export function withMarker(params: { marker: string; body: string; maxLength?: number }): string {
  const maxLength = params.maxLength ?? bodyLimit;
  return `${params.marker}\n${capText({ text: params.body, maxLength: maxLength - params.marker.length - 1 })}`;
}

/**
 * `text` cut to `maxLength` UTF-16 units (never fewer characters than GitHub
 * counts), at a line end where one is near, with a note saying how much was cut.
 */
export function capText(params: { text: string; maxLength: number }): string {
  const { text, maxLength } = params;
  if (text.length <= maxLength) return text;
  const note = (n: number) => `\n\n_… ${n} more characters not shown (GitHub's limit)._`;
  const room = maxLength - note(text.length).length;
  if (room <= 0) return text.slice(0, maxLength);
  let cut = room;
  const lineEnd = text.lastIndexOf("\n", room);
  if (lineEnd > room - 2000 && lineEnd > 0) cut = lineEnd;
  // Never split a surrogate pair: a lone half is not valid UTF-8 and GitHub would refuse the body.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return text.slice(0, cut) + note(text.length - cut);
}

/** A short, stable hash of what was written, kept in markers to tell "same content" without comparing GitHub's copy. */
export function digestOf(...parts: Array<string | undefined>): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${part?.length ?? -1}:${part ?? ""}`);
  return hash.digest("hex").slice(0, 16);
}

/** Posted before a tracking issue is closed. */
export function driftGoneComment(params: { target: string; revision?: string }): string {
  const at = params.revision ? ` at \`${params.revision.slice(0, 12)}\`` : "";
  return `The cluster matches Git again for target \`${params.target}\`${at}: no drift left. Closing; undrift reopens this issue if the drift returns.`;
}

/** Posted before a drift pull request is closed. */
export function driftPrClosedComment(params: { target: string; mode: string; revision?: string }): string {
  const at = params.revision ? ` at \`${params.revision.slice(0, 12)}\`` : "";
  return `The drift this pull request would ${params.mode} is gone for target \`${params.target}\`${at} (the cluster or Git was changed to match). Closing it and deleting its branch.`;
}
