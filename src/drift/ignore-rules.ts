// ignoreDifferences in Argo CD's shape: per group/kind/name/namespace, fields
// named by JSON pointers, by jq path expressions (real jq, compiled to
// WebAssembly) or by the managers that own them. Ignored fields are removed from
// both sides before comparing, as Argo CD's normalizer does.

import { formatConfigIssue } from "../config/config-error.ts";
import { JqLimitError } from "../config/jq-runner.ts";
import type { RuleOrigin } from "../config/rule-schemas.ts";
import type { KubeObject } from "../model/types.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { removePath, removePointer, removeSegments } from "./edit-object.ts";
import type { Ownership } from "./managed-fields.ts";

export interface IgnoreRule {
  group?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  jsonPointers?: string[];
  jqPathExpressions?: string[];
  managedFieldsManagers?: string[];
  /** Where the rule is written, when the config came from text. */
  origin?: RuleOrigin;
}

/** jq, as the engine needs it: the paths an expression selects in a value. */
export interface Jq {
  paths(value: unknown, expression: string): Array<Array<string | number>>;
}

export class IgnoreRuleError extends UndriftError {
  override name = "IgnoreRuleError";
  readonly permanent = true;
}

// An omitted selector or "*" matches anything: `- kind: Service` needs no group, and a rule with no kind applies to every object.
const matches = (selector: string | undefined, value: string) =>
  selector === undefined || selector === "*" || selector === value;

/** The rules that apply to an object. */
export function rulesFor(rules: IgnoreRule[], object: KubeObject, group: string): IgnoreRule[] {
  return rules.filter(
    (r) =>
      matches(r.group, group) &&
      matches(r.kind, object.kind) &&
      matches(r.name, object.metadata.name) &&
      matches(r.namespace, object.metadata.namespace ?? ""),
  );
}

/** Checks every jq expression compiles, so a typo fails the scan up front, naming the rule. */
export function checkIgnoreRules(rules: IgnoreRule[], jq: Jq): void {
  rules.forEach((rule, index) => {
    for (const expression of rule.jqPathExpressions ?? []) {
      try {
        jq.paths(null, expression);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (/compile error|syntax error/.test(message)) {
          throw new IgnoreRuleError(
            `ignoreDifferences[${index}].jqPathExpressions: ${expression}: ${firstJqError(message)}`,
          );
        }
      }
    }
  });
}

function firstJqError(message: string): string {
  return message.split("\n").find((line) => line.startsWith("jq: error")) ?? message.split("\n")[0] ?? message;
}

/** Removes the ignored fields from each object (edited in place). `ownership` is the live object's. */
export function stripIgnored(params: {
  objects: KubeObject[];
  rules: IgnoreRule[];
  ownership: Ownership;
  jq: Jq;
}): void {
  const { objects, rules, ownership, jq } = params;
  for (const rule of rules) {
    for (const object of objects) {
      for (const p of rule.jsonPointers ?? []) removePointer(object, p);
      for (const expression of rule.jqPathExpressions ?? []) {
        let paths: Array<Array<string | number>> = [];
        try {
          paths = jq.paths(object, expression);
        } catch (error) {
          // A filter past its time or memory bound fails the scan, naming the object: it would on every object alike.
          if (error instanceof JqLimitError) throw jqLimit({ error, rule, expression, object });
          // As in Argo CD: an expression that fails on this object (say, on a missing field) ignores nothing here.
        }
        // Remove deepest first so list indices stay valid.
        for (const path of paths.sort((a, b) => b.length - a.length || compareDesc(a, b))) removeSegments(object, path);
      }
      const managers = new Set(rule.managedFieldsManagers ?? []);
      if (managers.size === 0) continue;
      for (const owned of ownership.owned) if (managers.has(owned.owner.manager)) removePath(object, owned.path);
    }
  }
}

/** The bound as a config error on the expression's own line (`<file>:<line>: <field>: ...`), naming the object. */
function jqLimit(params: {
  error: JqLimitError;
  rule: IgnoreRule;
  expression: string;
  object: KubeObject;
}): JqLimitError {
  const { error, rule, expression, object } = params;
  // Of the same class as `error` (JqTimeoutError or JqMemoryError), so callers still tell which bound it was.
  const Bound = error.constructor as typeof JqLimitError;
  const ref = [object.kind, object.metadata.namespace, object.metadata.name].filter(Boolean).join("/");
  const origin = rule.origin;
  if (!origin) {
    const message = `${error.file}: ignoreDifferences: jqPathExpressions: ${JSON.stringify(expression)}: ${error.message} on ${ref}`;
    return new Bound(message, { file: error.file, cause: error });
  }
  const line = origin.jqLines[rule.jqPathExpressions?.indexOf(expression) ?? -1];
  const issue = {
    line,
    path: `${origin.field}.jqPathExpressions`,
    message: `${expression}: ${error.message} on ${ref}`,
  };
  return new Bound(formatConfigIssue(origin.file, issue), {
    file: origin.file,
    issues: [issue],
    cause: error,
  });
}

function compareDesc(a: Array<string | number>, b: Array<string | number>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return typeof x === "number" && typeof y === "number" ? y - x : String(y).localeCompare(String(x));
  }
  return 0;
}
