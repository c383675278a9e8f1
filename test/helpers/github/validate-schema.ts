// The subset of JSON Schema (OpenAPI 3.0 flavour) that GitHub's request bodies
// use: type with `nullable`, enum, required, properties, items, oneOf/anyOf/
// allOf, maxLength, maxItems. Enough to catch a misspelt field, a missing
// required one or a number sent as a string, which GitHub would answer with a
// 422 that nock never gives.
import type { Schema } from "./openapi-index.ts";

export interface ValidateParams {
  value: unknown;
  schema: Schema;
  /** Where the value sits, for messages: `body`, `body.tree[0].mode`. */
  at: string;
  resolveRef: (schema: Schema) => Schema;
  /**
   * Report properties the schema does not declare. GitHub ignores them silently
   * (so `labels` sent to "create a pull request" is lost), hence on for the top
   * level of a body; nested schemas are too often incomplete to be that strict.
   */
  strictProperties?: boolean;
}

/** Every way `value` breaks `schema`; empty when it fits. */
export function validateSchema(params: ValidateParams): string[] {
  const { value, at, resolveRef } = params;
  const schema = resolveRef(params.schema);
  if (value === null)
    return schema.nullable === true || schemaAllows(schema, "null") ? [] : [`${at}: must not be null`];
  const problems: string[] = [];
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) {
    const results = alternatives.map((s) => validateSchema({ ...params, schema: s }));
    if (!results.some((r) => r.length === 0)) {
      const best = results.reduce((a, b) => (b.length < a.length ? b : a));
      problems.push(...best);
    }
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    problems.push(...validateSchema({ ...params, schema: part, strictProperties: false }));
  }
  const typeProblem = checkType(value, schema, at);
  if (typeProblem) return [...problems, typeProblem];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    problems.push(
      `${at}: ${JSON.stringify(value)} is not one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`,
    );
  }
  if (typeof value === "string" && typeof schema.maxLength === "number" && value.length > schema.maxLength) {
    problems.push(`${at}: ${value.length} characters, at most ${schema.maxLength} allowed`);
  }
  if (Array.isArray(value)) problems.push(...checkArray(value, schema, params));
  else if (typeof value === "object") problems.push(...checkObject(value as Record<string, unknown>, schema, params));
  return problems;
}

function checkArray(value: unknown[], schema: Schema, params: ValidateParams): string[] {
  const problems: string[] = [];
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    problems.push(`${params.at}: ${value.length} items, at most ${schema.maxItems} allowed`);
  }
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    problems.push(`${params.at}: ${value.length} items, at least ${schema.minItems} required`);
  }
  const items = schema.items as Schema | undefined;
  if (items) {
    value.forEach((item, i) => {
      problems.push(
        ...validateSchema({ ...params, value: item, schema: items, at: `${params.at}[${i}]`, strictProperties: false }),
      );
    });
  }
  return problems;
}

function checkObject(value: Record<string, unknown>, schema: Schema, params: ValidateParams): string[] {
  const problems: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (value[name] === undefined) problems.push(`${params.at}.${name}: required`);
  }
  const additional = schema.additionalProperties;
  const strict = additional === false || (params.strictProperties === true && additional === undefined);
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const at = `${params.at}.${name}`;
    const property = properties[name];
    if (property)
      problems.push(...validateSchema({ ...params, value: item, schema: property, at, strictProperties: false }));
    else if (typeof additional === "object" && additional !== null) {
      problems.push(
        ...validateSchema({ ...params, value: item, schema: additional as Schema, at, strictProperties: false }),
      );
    } else if (strict && schema.properties && !schema.allOf) {
      problems.push(`${at}: not a parameter of this operation (GitHub ignores it)`);
    }
  }
  return problems;
}

function schemaAllows(schema: Schema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function checkType(value: unknown, schema: Schema, at: string): string | undefined {
  if (schema.type === undefined) return undefined;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
  if (types.some((t) => hasType(value, t))) return undefined;
  return `${at}: expected ${types.join(" or ")}, got ${describe(value)}`;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 40)}...` : text}`;
}
