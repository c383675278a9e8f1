// Paths for people: `spec.template.spec.containers[name=web].image` rather than managedFields tokens.
import type { FieldPath } from "../../../drift/field-path.ts";

export function describePath(path: FieldPath): string {
  let out = "";
  for (const token of path) {
    const body = token.slice(2);
    if (token.startsWith("f:")) out += out === "" ? body : `.${body}`;
    else if (token.startsWith("k:")) {
      const key = JSON.parse(body) as Record<string, unknown>;
      out += `[${Object.entries(key)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join(",")}]`;
    } else if (token.startsWith("v:")) out += `[=${body}]`;
    else out += `[${body}]`;
  }
  return out;
}
