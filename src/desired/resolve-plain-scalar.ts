// What an unquoted, untagged YAML scalar means to the Kubernetes YAML decoder
// (sigs.k8s.io/yaml over its go-yaml v2 fork, YAML 1.1): a port of go-yaml v2's
// `resolve` (resolve.go), run by a Go whose strconv.ParseInt accepts 0x, 0o and
// 0b prefixes. Notable: `0755` is 493, `yes`/`On`/`n` are booleans, `1:20` and
// `2001-12-14` stay strings (v2 hands timestamps to interface{} as strings).

/** A resolved plain scalar; integers stay exact (bigint) so map keys print as Go prints them. */
export type PlainScalar =
  | { type: "string"; value: string }
  | { type: "bool"; value: boolean }
  | { type: "null"; value: null }
  | { type: "int"; value: bigint }
  | { type: "float"; value: number };

const words = new Map<string, PlainScalar>();
const add = (scalar: PlainScalar, spellings: string[]) => {
  for (const s of spellings) words.set(s, scalar);
};
add({ type: "bool", value: true }, ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]);
add({ type: "bool", value: false }, ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]);
add({ type: "null", value: null }, ["", "~", "null", "Null", "NULL"]);
add({ type: "float", value: Number.NaN }, [".nan", ".NaN", ".NAN"]);
add({ type: "float", value: Number.POSITIVE_INFINITY }, [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]);
add({ type: "float", value: Number.NEGATIVE_INFINITY }, ["-.inf", "-.Inf", "-.INF"]);

// go-yaml v2's yamlStyleFloat, tried after the integer forms fail.
const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const timestampStart = /^[0-9]{4}-/;
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** The value go-yaml v2 gives the plain scalar `text` when it decodes into interface{}. */
export function resolvePlainScalar(text: string): PlainScalar {
  const word = words.get(text);
  if (word) return word;
  const first = text[0] ?? "";
  if (first === ".") {
    const float = goParseFloat(text);
    return float === undefined ? { type: "string", value: text } : { type: "float", value: float };
  }
  if (!/[-+0-9]/.test(first)) return { type: "string", value: text };
  // A timestamp-looking value stays the string it is (v2's backward compatibility for interface{}).
  if (timestampStart.test(text)) return { type: "string", value: text };
  const plain = text.replaceAll("_", "");
  const int = goParseInt(plain);
  if (int !== undefined) return { type: "int", value: int };
  // ParseFloat fails with ErrRange past float64 (`1e400`), and go-yaml keeps the string then.
  if (yamlStyleFloat.test(plain) && Number.isFinite(Number(plain))) return { type: "float", value: Number(plain) };
  return { type: "string", value: text };
}

// strconv.ParseInt(s, 0, 64), falling back to ParseUint: sign, then 0x / 0o / 0b / leading-0 octal / decimal.
function goParseInt(s: string): bigint | undefined {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!match) return undefined;
  const [, sign, digits] = match as unknown as [string, string, string];
  const prefix = digits.slice(0, 2).toLowerCase();
  let magnitude: bigint;
  if (prefix === "0x" || prefix === "0o" || prefix === "0b") magnitude = BigInt(`0${prefix[1]}${digits.slice(2)}`);
  else if (digits.length > 1 && digits[0] === "0") magnitude = BigInt(`0o${digits.slice(1)}`);
  else magnitude = BigInt(digits);
  const value = sign === "-" ? -magnitude : magnitude;
  // ParseUint takes no sign, so a positive value up to 2^64-1 resolves only without one.
  if (value >= -INT64_MAX - 1n && value <= INT64_MAX) return value;
  if (sign === "" && value <= UINT64_MAX) return value;
  return undefined;
}

// strconv.ParseFloat for the `.`-led spellings go-yaml v2 tries: `.5`, `.5e3` (not `.`, not `.x`).
function goParseFloat(s: string): number | undefined {
  return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s)) ? Number(s) : undefined;
}
