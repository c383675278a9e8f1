// A number or boolean written back in the spelling its file used: a file mode
// written `0644` stays octal (`0755`, not `493`), a hex value stays hex, and
// `yes`/`On`/`n` keep their family. Read as kubectl reads them (go-yaml v2).
import { resolvePlainScalar } from "../../../desired/resolve-plain-scalar.ts";

const booleanSpellings: [string, string][] = [
  ["true", "false"],
  ["True", "False"],
  ["TRUE", "FALSE"],
  ["yes", "no"],
  ["Yes", "No"],
  ["YES", "NO"],
  ["on", "off"],
  ["On", "Off"],
  ["ON", "OFF"],
  ["y", "n"],
  ["Y", "N"],
];

/** `value` spelled as the plain scalar `source` was, or undefined when plain decimal (or nothing) fits. */
export function keepSpelling({ source, value }: { source: string; value: unknown }): string | undefined {
  const spelled = spell(source, value);
  // Only a spelling that kubectl reads back as `value` is kept.
  if (spelled === undefined) return undefined;
  const back = resolvePlainScalar(spelled);
  return (back.type === "int" ? Number(back.value) : back.value) === value ? spelled : undefined;
}

function spell(source: string, value: unknown): string | undefined {
  if (typeof value === "boolean") {
    const family = booleanSpellings.find((pair) => pair.includes(source));
    return family ? family[value ? 0 : 1] : undefined;
  }
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) return undefined;
  const prefixed = /^0([xXoObB])([0-9a-fA-F_]*)$/.exec(source);
  if (prefixed) {
    const [, letter, digits] = prefixed as unknown as [string, string, string];
    const radix = { x: 16, o: 8, b: 2 }[letter.toLowerCase() as "x" | "o" | "b"];
    const text = value.toString(radix);
    return `0${letter}${/[A-F]/.test(digits) ? text.toUpperCase() : text}`;
  }
  // `0644`: leading-zero octal, as wide as it was written.
  if (/^0[0-7_]+$/.test(source)) return `0${value.toString(8).padStart(source.replaceAll("_", "").length - 1, "0")}`;
  return undefined;
}
