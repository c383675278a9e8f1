// GitHub's published REST description (@octokit/openapi), indexed once per
// process by method and path length, so every mocked request can be matched to
// the operation it claims to be in microseconds.
//
// The description with `$ref`s (13 MB) is read instead of the dereferenced one
// (73 MB): it parses four times faster, and the few schemas a request touches
// are resolved lazily through `resolveRef`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A JSON Schema object as the description spells it (OpenAPI 3.0: `nullable`, `$ref`). */
export type Schema = { [key: string]: unknown };

export interface ParameterSpec {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema: Schema;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  /** The path template, e.g. `/repos/{owner}/{repo}/git/refs/{ref}`. */
  template: string;
  /** Literal segments as strings, parameters as `{ param }`. */
  segments: Array<string | { param: string }>;
  parameters: ParameterSpec[];
  /** The JSON request body's schema, when the operation takes one. */
  body?: { required: boolean; schema: Schema; contentTypes: string[] };
}

interface Description {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export interface OpenApiIndex {
  /** Operations by upper-case method, then by number of path segments. */
  byMethod: Map<string, Map<number, OperationSpec[]>>;
  /** Templates whose last parameter may span several segments (`{ref}` with slashes, `{path}` of contents). */
  greedy: Map<string, OperationSpec[]>;
  resolveRef: (schema: Schema) => Schema;
}

const methods = ["get", "put", "post", "patch", "delete", "head", "options"];
// These parameters name a Git ref or a file path; GitHub accepts them with or without encoded slashes.
const spanningParams = new Set(["ref", "path", "branch", "name", "basehead"]);
const cacheKey = Symbol.for("undrift.test.openapi-index");

/** A description @octokit/openapi publishes: github.com's, or a GitHub Enterprise Server release's. */
export type OpenApiDescription = "api.github.com" | `ghes-3.${number}`;

/** The index, built on first use and kept on globalThis so re-imported modules in one process share it. */
export function openApiIndex(description: OpenApiDescription = "api.github.com"): OpenApiIndex {
  const key = description === "api.github.com" ? cacheKey : Symbol.for(`${cacheKey.description}.${description}`);
  const holder = globalThis as { [key: symbol]: OpenApiIndex | undefined };
  holder[key] ??= buildIndex(loadDescription(description));
  return holder[key];
}

function loadDescription(description: OpenApiDescription): Description {
  const require = createRequire(import.meta.url);
  const file = require.resolve(`@octokit/openapi/generated/${description}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as Description;
}

function buildIndex(description: Description): OpenApiIndex {
  const resolveRef = (schema: Schema): Schema => {
    let current = schema;
    // Chains of $ref are short; the bound only guards against a cycle in a broken description.
    for (let hops = 0; typeof current.$ref === "string" && hops < 16; hops++) {
      const [, , section, name] = current.$ref.split("/");
      const target = description.components[section ?? ""]?.[decodeURIComponent(name ?? "")];
      if (!target) throw new Error(`OpenAPI description: unresolved ${current.$ref}`);
      current = target as Schema;
    }
    return current;
  };
  const byMethod = new Map<string, Map<number, OperationSpec[]>>();
  const greedy = new Map<string, OperationSpec[]>();
  for (const [template, item] of Object.entries(description.paths)) {
    const shared = (item.parameters as Schema[] | undefined) ?? [];
    for (const method of methods) {
      const raw = item[method] as Schema | undefined;
      if (!raw) continue;
      const op = operationSpec({ template, method: method.toUpperCase(), raw, shared, resolveRef });
      const bySize = byMethod.get(op.method) ?? new Map<number, OperationSpec[]>();
      byMethod.set(op.method, bySize);
      bySize.set(op.segments.length, [...(bySize.get(op.segments.length) ?? []), op]);
      const last = op.segments.at(-1);
      if (typeof last === "object" && spanningParams.has(last.param)) {
        greedy.set(op.method, [...(greedy.get(op.method) ?? []), op]);
      }
    }
  }
  return { byMethod, greedy, resolveRef };
}

function operationSpec(params: {
  template: string;
  method: string;
  raw: Schema;
  shared: Schema[];
  resolveRef: (schema: Schema) => Schema;
}): OperationSpec {
  const { template, method, raw, shared, resolveRef } = params;
  const segments = template
    .split("/")
    .slice(1)
    .map((s) => (s.startsWith("{") && s.endsWith("}") ? { param: s.slice(1, -1) } : s));
  const parameters = [...shared, ...((raw.parameters as Schema[] | undefined) ?? [])].map((p) => {
    const spec = resolveRef(p);
    return {
      name: String(spec.name),
      in: spec.in as ParameterSpec["in"],
      required: spec.required === true,
      schema: (spec.schema as Schema | undefined) ?? {},
    };
  });
  const op: OperationSpec = { operationId: String(raw.operationId), method, template, segments, parameters };
  const requestBody = raw.requestBody ? resolveRef(raw.requestBody as Schema) : undefined;
  const content = requestBody?.content as Record<string, { schema?: Schema }> | undefined;
  if (content) {
    const schema = content["application/json"]?.schema ?? Object.values(content)[0]?.schema ?? {};
    op.body = { required: requestBody?.required === true, schema, contentTypes: Object.keys(content) };
  }
  return op;
}
