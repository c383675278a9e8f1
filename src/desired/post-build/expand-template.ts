// Evaluates a parsed substitution template (parse-template.ts) the way
// fluxcd/pkg/envsubst's Template.Execute and funcs.go do: arguments first, then
// the variable, then the operator's function. Lengths and offsets count UTF-8
// bytes, as Go's strings do. Every default-style operator (`=`, `:=`, `:-`,
// `:?`, `:+`) gives the default when the value is empty (Flux's toDefault:
// `:+` and `:?` are not bash's). An unknown variable reads as empty, unless
// `strict`: then one used without a default-style operator fails.
import { BadPatternError, matchGlob } from "./match-glob.ts";
import type { TemplateNode } from "./parse-template.ts";

/** A variable used without a default in strict mode, as Flux's StrictPostBuildSubstitutions fails it. */
export class VariableNotSetError extends Error {
  override name = "VariableNotSetError";
  readonly variable: string;
  constructor(variable: string) {
    super(`variable not set (strict mode): "${variable}"`);
    this.variable = variable;
  }
}

const DEFAULT_OPS = new Set(["-", "+", "=", "?", ":-", ":+", ":=", ":?"]);

/** What expansion reads: the values by name, and how to trace the ones that must not be shown. */
export interface Lookup {
  vars: ReadonlyMap<string, string>;
  strict: boolean;
  /**
   * When set, the result of every expression that read a `secret` variable, or took an argument that did, is
   * wrapped in `open`/`close`, so the caller can find the fields Secret data reached (arguments are evaluated
   * without the marks, so the values are the same as without tracing).
   */
  trace?: { secret: (name: string) => boolean; open: string; close: string };
}

/** The text of `nodes` with every expression evaluated; throws VariableNotSetError in strict mode. */
export function expandTemplate(nodes: TemplateNode[], lookup: Lookup): string {
  return nodes.map((node) => ("text" in node ? node.text : expression(node, lookup))).join("");
}

function expression(node: Exclude<TemplateNode, { text: string }>, lookup: Lookup): string {
  const { trace } = lookup;
  const traced = node.args.map((arg) => expandTemplate(arg, lookup));
  const args = trace ? traced.map((a) => a.replaceAll(trace.open, "").replaceAll(trace.close, "")) : traced;
  const known = lookup.vars.has(node.param);
  if (!known && lookup.strict && !DEFAULT_OPS.has(node.op)) throw new VariableNotSetError(node.param);
  const result = apply(node.op, lookup.vars.get(node.param) ?? "", args);
  if (!trace) return result;
  const tainted = (known && trace.secret(node.param)) || traced.some((a, i) => a !== args[i]);
  return tainted ? `${trace.open}${result}${trace.close}` : result;
}

function apply(op: string, s: string, args: string[]): string {
  switch (op) {
    case ",":
      return s.slice(0, firstLength(s)).toLowerCase() + s.slice(firstLength(s));
    case ",,":
      return s.toLowerCase();
    case "^":
      return s.slice(0, firstLength(s)).toUpperCase() + s.slice(firstLength(s));
    case "^^":
      return s.toUpperCase();
    case "#":
      return args.length === 0 ? String(Buffer.byteLength(s)) : trimPrefix(s, args[0]!, "shortest");
    case "##":
      return trimPrefix(s, args[0] ?? "", "longest");
    case "%":
      return reverse(trimPrefix(reverse(s), reverse(args[0] ?? ""), "shortest"));
    case "%%":
      return reverse(trimPrefix(reverse(s), reverse(args[0] ?? ""), "longest"));
    case ":":
      return substring(s, args);
    case "/#":
      return args.length === 2 && s.startsWith(args[0]!) ? args[1]! + s.slice(args[0]!.length) : s;
    case "/%":
      return args.length === 2 && s.endsWith(args[0]!) ? s.slice(0, s.length - args[0]!.length) + args[1]! : s;
    case "/":
      return args.length === 0 ? s : s.replace(args[0]!, () => args[1] ?? "");
    case "//":
      return args.length === 0 ? s : s.replaceAll(args[0]!, () => args[1] ?? "");
    default:
      // Plain `${var}`, the default-style operators, and any other spelling (`${var,^}`) alike.
      return s === "" && args.length > 0 ? args.join("") : s;
  }
}

const firstLength = (s: string) => (s.codePointAt(0) !== undefined && s.codePointAt(0)! > 0xffff ? 2 : s ? 1 : 0);
const reverse = (s: string) => [...s].reverse().join("");

/** `s` without the shortest or longest non-empty prefix `pattern` matches; a malformed pattern leaves `s`. */
function trimPrefix(s: string, pattern: string, which: "shortest" | "longest"): string {
  let found = "";
  for (let end = s.length; end > 0; end--) {
    let matched: boolean;
    try {
      matched = matchGlob(pattern, s.slice(0, end));
    } catch (error) {
      if (error instanceof BadPatternError) return s;
      throw error;
    }
    if (!matched) continue;
    found = s.slice(0, end);
    if (which === "longest") break;
  }
  return s.slice(found.length);
}

/** `${var:offset}` and `${var:offset:length}` over UTF-8 bytes; a non-number leaves the value as it is. */
function substring(s: string, args: string[]): string {
  const bytes = Buffer.from(s, "utf8");
  const int = (text: string | undefined) => (text !== undefined && /^[+-]?\d+$/.test(text) ? Number(text) : undefined);
  let pos = int(args[0]);
  if (pos === undefined) return s;
  if (pos < 0) pos = Math.max(0, bytes.length + pos);
  const slice = (from: number, to?: number) => bytes.subarray(from, to).toString("utf8");
  if (args.length === 1) return pos < bytes.length ? slice(pos) : "";
  const length = int(args[1]);
  if (length === undefined) return s;
  if (length < 0) {
    const end = bytes.length + length;
    return end < pos ? "" : slice(pos, end);
  }
  if (pos + length >= bytes.length) return pos < bytes.length ? slice(pos) : "";
  return slice(pos, pos + length);
}
