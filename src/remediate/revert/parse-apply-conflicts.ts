// The fields and owners of a server-side apply conflict (409), read from the
// Status message, which lists every conflict in a fixed format:
//   Apply failed with 1 conflict: conflict with "kubectl-set" using apps/v1: .spec.replicas
//   Apply failed with 2 conflicts: conflicts with "kubectl" with subresource "scale" using apps/v1:
//   - .spec.replicas
//   conflicts with "hpa" using apps/v1:
//   - .spec.template.spec.containers[name="web"].image
// The Status also carries them as `details.causes`, but KubeClient keeps only
// the message of an error body, so the message is what there is to read.
import type { FieldConflict } from "../../model/change-set.ts";

const quoted = String.raw`"((?:[^"\\]|\\.)*)"`;
const manager = new RegExp(
  String.raw`^conflicts? with ${quoted}(?: with subresource ${quoted})?(?: using \S+?)?` +
    String.raw`(?: at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)?(?::\s*(.*))?$`,
);

/** Whether an API error message is a server-side apply conflict. */
export function isApplyConflict(message: string): boolean {
  return /Apply failed with \d+ conflicts?:/.test(message);
}

/** Every conflict in the message, in its order; empty when it is not an apply conflict. */
export function parseApplyConflicts(message: string): FieldConflict[] {
  const start = /Apply failed with \d+ conflicts?:\s*/.exec(message);
  if (!start) return [];
  const out: FieldConflict[] = [];
  let owner: Omit<FieldConflict, "field"> | undefined;
  for (const line of message.slice(start.index + start[0].length).split("\n")) {
    const text = line.trim();
    if (text.startsWith("- ") && owner) {
      out.push({ field: text.slice(2).trim(), ...owner });
      continue;
    }
    const match = manager.exec(text);
    if (!match) continue;
    owner = { manager: unquote(match[1]!), ...(match[2] !== undefined ? { subresource: unquote(match[2]) } : {}) };
    if (match[3]) out.push({ field: match[3].trim(), ...owner });
  }
  return out;
}

// The server quotes names with Go's %q, which agrees with JSON for every name a field manager can have.
function unquote(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}
