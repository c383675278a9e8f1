// One parsed YAML document to the JSON value kubectl, Flux and helm send to the
// API server: sigs.k8s.io/yaml's YAMLToJSON, which decodes with go-yaml v2 into
// interface{} and then makes every map key a string. The `yaml` package only
// parses; scalars, keys and merge keys are resolved here, as go-yaml v2 does.
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
} from "yaml";
import { type PlainScalar, resolvePlainScalar } from "./resolve-plain-scalar.ts";
import { resolveTaggedScalar } from "./resolve-tagged-scalar.ts";

/**
 * Deepest nesting of mappings and sequences in one document. Real manifests stay far below it (CRD schemas that
 * embed a pod template reach about 70 levels); past it a hostile file would only cost stack and memory.
 */
export const MAX_DOCUMENT_DEPTH = 200;
/** Most nodes that aliases may expand to in one document, so an alias bomb fails fast instead of filling memory. */
export const MAX_ALIAS_NODES = 100_000;

/** The line of every key of every decoded mapping, so later checks can point at the field at fault. */
export type KeyLines = WeakMap<object, Map<string, number>>;

interface DecodeParams {
  doc: Document;
  keyLines: KeyLines;
  lineOf: (offset: number) => number;
  fail: (message: string, offset: number) => never;
}

/** Decodes `doc`; `fail` throws the caller's error for the node at `offset`. */
export function yamlToKubernetesJson(params: DecodeParams): unknown {
  return new Decoder(params).value(params.doc.contents, 0);
}

const offsetOf = (node: unknown) => (node as Node).range?.[0] ?? 0;

/** One document's decoding: the alias budget it has left and how deep inside an alias it is. */
class Decoder {
  private aliasBudget = MAX_ALIAS_NODES;
  private inAlias = 0;
  private readonly doc: Document;
  private readonly keyLines: KeyLines;
  private readonly lineOf: (offset: number) => number;
  private readonly fail: (message: string, offset: number) => never;

  constructor({ doc, keyLines, lineOf, fail }: DecodeParams) {
    this.doc = doc;
    this.keyLines = keyLines;
    this.lineOf = lineOf;
    this.fail = fail;
  }

  value(node: unknown, depth: number): unknown {
    if (node === null || node === undefined) return null;
    if (this.inAlias > 0 && --this.aliasBudget < 0) {
      this.fail(`aliases expand to more than ${MAX_ALIAS_NODES} nodes`, offsetOf(node));
    }
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (!target) return this.fail(`alias *${node.source} has no anchor`, offsetOf(node));
      this.inAlias++;
      try {
        return this.value(target, depth);
      } finally {
        this.inAlias--;
      }
    }
    if (isScalar(node)) return this.scalarValue(node);
    if (depth >= MAX_DOCUMENT_DEPTH) {
      this.fail(`nested deeper than ${MAX_DOCUMENT_DEPTH} levels, the limit for a manifest`, offsetOf(node));
    }
    // An item of !!omap or !!pairs is a pair, which go-yaml reads as the one-entry mapping it was written as.
    if (isSeq(node))
      return node.items.map((item) => (isPair(item) ? this.pairValue(item, depth + 1) : this.value(item, depth + 1)));
    if (isMap(node)) return this.mapValue(node, depth);
    return this.fail("unsupported YAML node", offsetOf(node));
  }

  private mapValue(node: YAMLMap, depth: number): Record<string, unknown> {
    const entries = new Map<string, unknown>();
    const lines = new Map<string, number>();
    const written = new Map<string, { identity: string; source: string }>();
    for (const pair of node.items) {
      if (isMergeKey(pair.key)) {
        this.merge(pair.value, depth, entries, lines);
        continue;
      }
      const { key, identity, source } = this.keyOf(pair.key);
      // Of two equal keys go-yaml keeps the later, as kubectl and helm do. Two different keys that JSON spells
      // alike (`1` and `"1"`) reach JSON in Go's random map order: no one can say which value kubectl applies.
      const earlier = written.get(key);
      if (earlier && earlier.identity !== identity) {
        this.fail(
          `keys ${earlier.source} and ${source} are both "${key}" in JSON, and kubectl keeps either at random`,
          offsetOf(pair.key),
        );
      }
      written.set(key, { identity, source });
      entries.set(key, this.value(pair.value, depth + 1));
      lines.set(key, this.lineOf(offsetOf(pair.key)));
    }
    // fromEntries defines own properties, so a `__proto__` key stays data.
    const object = Object.fromEntries(entries);
    this.keyLines.set(object, lines);
    return object;
  }

  /** A `<<` merge: go-yaml v2 merges in place, so a key before `<<` is overwritten, one after wins; in a list, earlier maps win. */
  private merge(value: unknown, depth: number, entries: Map<string, unknown>, lines: Map<string, number>): void {
    const source = isAlias(value) ? value.resolve(this.doc) : value;
    const maps = isSeq(source) ? [...source.items].reverse() : [value];
    for (const map of maps) {
      const target = isAlias(map) ? map.resolve(this.doc) : map;
      if (!isMap(target)) this.fail("map merge requires map or sequence of maps as the value", offsetOf(map));
      const merged = this.value(map, depth + 1) as Record<string, unknown>;
      const mergedLines = this.keyLines.get(merged);
      for (const [k, v] of Object.entries(merged)) {
        entries.set(k, v);
        lines.set(k, mergedLines?.get(k) ?? this.lineOf(offsetOf(map)));
      }
    }
  }

  private pairValue(pair: Pair, depth: number): unknown {
    const { key } = this.keyOf(pair.key);
    const object = Object.fromEntries([[key, this.value(pair.value, depth + 1)]]);
    this.keyLines.set(object, new Map([[key, this.lineOf(offsetOf(pair.key))]]));
    return object;
  }

  // go-yaml v2's resolution: a plain scalar by its spelling, a quoted one as the string it is, a tagged one by its tag.
  private resolveScalar(node: Scalar): PlainScalar {
    const text = String(node.source);
    if (node.tag === undefined)
      return node.type === "PLAIN" ? resolvePlainScalar(text) : { type: "string", value: text };
    const resolved = resolveTaggedScalar(node.tag, text);
    return resolved.type === "error" ? this.fail(resolved.message, offsetOf(node)) : resolved;
  }

  private scalarValue(node: Scalar): unknown {
    const resolved = this.resolveScalar(node);
    if (resolved.type === "int") return Number(resolved.value);
    if (resolved.type === "float" && !Number.isFinite(resolved.value)) {
      const hint = node.tag === undefined ? "; quote it for a string" : "";
      this.fail(`${node.source}: JSON has no ${resolved.value} (kubectl refuses it too)${hint}`, offsetOf(node));
    }
    return resolved.value;
  }

  // sigs.k8s.io/yaml's key conversion: strings as they are, ints in decimal, floats as Go prints a float32, bools.
  // `identity` is the key as go-yaml holds it (type and value), which decides whether two keys are the same one.
  private keyOf(node: unknown): { key: string; identity: string; source: string } {
    const target = isAlias(node) ? node.resolve(this.doc) : node;
    if (!isScalar(target))
      return this.fail("unsupported map key: a mapping or sequence cannot be a key", offsetOf(node));
    const resolved = this.resolveScalar(target);
    const named = (key: string) => ({
      key,
      identity: `${resolved.type}:${String(resolved.value)}`,
      source: spelling(target),
    });
    if (resolved.type === "string") return named(resolved.value);
    if (resolved.type === "bool") return named(String(resolved.value));
    if (resolved.type === "int") {
      if (resolved.value > 2n ** 63n - 1n) {
        return this.fail(`unsupported map key ${target.source}: beyond int64`, offsetOf(node));
      }
      return named(resolved.value.toString());
    }
    if (resolved.type === "float") return named(goFloat32Key(resolved.value));
    return this.fail(`unsupported map key ${JSON.stringify(target.source ?? null)}: a null key`, offsetOf(node));
  }
}

/** A key as its file spells it, for an error message: `1`, `'1'`, `!!int "1"`. */
function spelling(node: Scalar): string {
  const tag = node.tag ? `${node.tag.replace("tag:yaml.org,2002:", "!!")} ` : "";
  const text = String(node.source);
  if (node.type === "QUOTE_SINGLE") return `${tag}'${text}'`;
  return tag + (node.type === "PLAIN" ? text : JSON.stringify(text));
}

// go-yaml v2's isMerge: `<<` plain and untagged, or tagged !!merge however it is quoted.
function isMergeKey(key: unknown): boolean {
  if (!isScalar(key) || key.source !== "<<") return false;
  return key.tag === "tag:yaml.org,2002:merge" || (key.tag === undefined && key.type === "PLAIN");
}

// strconv.FormatFloat(f, 'g', -1, 32) with go-yaml's names for the infinities and NaN.
function goFloat32Key(f: number): string {
  if (Number.isNaN(f)) return ".nan";
  if (!Number.isFinite(f)) return f > 0 ? ".inf" : "-.inf";
  const single = Math.fround(f);
  let digits = single.toPrecision(1);
  for (let p = 1; p <= 9; p++) {
    digits = single.toPrecision(p);
    if (Math.fround(Number(digits)) === single) break;
  }
  const [mantissa, exp] = Number(digits).toExponential().split("e") as [string, string];
  const exponent = Number(exp);
  // 'g' with the shortest precision switches to %e when the exponent is < -4 or >= 6.
  if (exponent < -4 || exponent >= 6) {
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(Number(digits));
}
