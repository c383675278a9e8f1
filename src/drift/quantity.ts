// Kubernetes resource quantities compared by value, not spelling: the API server
// stores cpu "0.5" as "500m" and memory "1024Mi" as "1Gi", which is not drift.

const binary: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const pattern = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+|[numkMGTPE])?$/;

/** A quantity as an exact fraction numerator/denominator, or undefined when the text is not a quantity. */
export function parseQuantity(text: unknown): { num: bigint; den: bigint } | undefined {
  if (typeof text === "number") text = String(text);
  if (typeof text !== "string") return undefined;
  const match = pattern.exec(text.trim());
  if (!match) return undefined;
  const [, sign, digits = "", suffix = ""] = match;
  const [whole = "", fraction = ""] = digits.split(".");
  let num = BigInt(`${whole || "0"}${fraction}`) * (sign === "-" ? -1n : 1n);
  let den = 10n ** BigInt(fraction.length);
  const factor = binary[suffix];
  // "E" alone is exa; an exponent has digits ("1e3").
  const exponent = factor ? 0 : /^[eE][+-]?\d/.test(suffix) ? Number(suffix.slice(1)) : (decimal[suffix] ?? 0);
  if (factor) num *= factor;
  if (exponent >= 0) num *= 10n ** BigInt(exponent);
  else den *= 10n ** BigInt(-exponent);
  return { num, den };
}

/** Whether two quantities are the same amount. */
export function sameQuantity(a: unknown, b: unknown): boolean {
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  return Boolean(x && y && x.num * y.den === y.num * x.den);
}

const quantityParents = new Set(["f:limits", "f:requests", "f:hard", "f:capacity", "f:allocatable", "f:overhead"]);
const limitRangeParents = new Set(["f:max", "f:min", "f:default", "f:defaultRequest", "f:maxLimitRequestRatio"]);
// Kinds whose maps hold free text: a ConfigMap key named "requests" or "storage" is a string like any other.
const textKinds = new Set(["ConfigMap", "Secret"]);

/** Whether a path of a built-in kind holds a quantity (resources, quotas, limit ranges, an emptyDir's sizeLimit). */
export function isQuantityPath(path: string[], kind: string): boolean {
  if (textKinds.has(kind) || path[0] === "f:metadata") return false;
  const parent = path.at(-2) ?? "";
  if (quantityParents.has(parent)) return true;
  if (path.at(-1) === "f:sizeLimit" && parent === "f:emptyDir") return true;
  return kind === "LimitRange" && limitRangeParents.has(parent);
}
