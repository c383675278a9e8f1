// Checks one request against GitHub's REST description: which operation it is
// (method + path template), that its path parameters have the right shape,
// that required query parameters are there and no unknown ones are, and that a
// JSON body has the required fields with the declared types.
import {
  type OpenApiDescription,
  type OpenApiIndex,
  type OperationSpec,
  openApiIndex,
  type ParameterSpec,
} from "./openapi-index.ts";
import { validateSchema } from "./validate-schema.ts";

export interface RequestToCheck {
  method: string;
  /** The full URL the client sent. */
  url: string;
  /** The body as text (empty when none). */
  body: string;
  contentType?: string | null;
  /** The API root: `https://api.github.com`, or `https://ghe.example/api/v3` for GitHub Enterprise Server. */
  baseUrl?: string;
  /** The description to check against (default github.com's). */
  description?: OpenApiDescription;
}

export interface CheckedRequest {
  operation?: OperationSpec;
  /** Path parameters as the operation names them, decoded. */
  pathParams: Record<string, string>;
  /** The parsed JSON body, when it was JSON. */
  json?: unknown;
  problems: string[];
}

export function checkRequest(request: RequestToCheck): CheckedRequest {
  const index = openApiIndex(request.description);
  const url = new URL(request.url);
  const prefix = new URL(request.baseUrl ?? "https://api.github.com").pathname.replace(/\/$/, "");
  const path = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  const method = request.method.toUpperCase();
  const label = `${method} ${path}`;
  const match = matchOperation(index, method, path);
  if (!match) {
    return { pathParams: {}, problems: [`${label}: matches no operation of GitHub's REST API description`] };
  }
  const { operation, pathParams } = match;
  const problems: string[] = [];
  const where = `${label} (${operation.operationId}, ${operation.method} ${operation.template})`;
  for (const p of operation.parameters.filter((x) => x.in === "path")) {
    const value = pathParams[p.name];
    if (value === undefined || value === "") problems.push(`path parameter ${p.name}: missing`);
    else problems.push(...checkParamValue(p, value, index, "path parameter"));
  }
  problems.push(...checkQuery(operation, url.searchParams, index));
  const checkedBody = checkBody(operation, request, index);
  problems.push(...checkedBody.problems);
  const result: CheckedRequest = {
    operation,
    pathParams,
    problems: problems.map((p) => `${where}: ${p}`),
  };
  if (checkedBody.json !== undefined) result.json = checkedBody.json;
  return result;
}

/** The operation a request is: exact segment count first, then templates whose last parameter spans slashes; most literal segments win. */
export function matchOperation(
  index: OpenApiIndex,
  method: string,
  path: string,
): { operation: OperationSpec; pathParams: Record<string, string> } | undefined {
  const raw = path.split("/").slice(1);
  const segments = raw.map((s) => safeDecode(s));
  let best: { operation: OperationSpec; pathParams: Record<string, string>; literals: number } | undefined;
  const consider = (operation: OperationSpec, spanning: boolean) => {
    const params: Record<string, string> = {};
    let literals = 0;
    const last = operation.segments.length - 1;
    for (let i = 0; i <= last; i++) {
      const expected = operation.segments[i]!;
      const actual = spanning && i === last ? segments.slice(i).join("/") : segments[i];
      if (actual === undefined) return;
      if (typeof expected === "string") {
        if (expected !== actual) return;
        literals++;
      } else {
        if (actual === "") return;
        params[expected.param] = actual;
      }
    }
    if (!best || literals > best.literals) best = { operation, pathParams: params, literals };
  };
  for (const op of index.byMethod.get(method)?.get(segments.length) ?? []) consider(op, false);
  if (!best) {
    for (const op of index.greedy.get(method) ?? []) if (op.segments.length < segments.length) consider(op, true);
  }
  return best && { operation: best.operation, pathParams: best.pathParams };
}

function checkQuery(operation: OperationSpec, search: URLSearchParams, index: OpenApiIndex): string[] {
  const problems: string[] = [];
  const declared = new Map(operation.parameters.filter((p) => p.in === "query").map((p) => [p.name, p]));
  for (const p of declared.values()) {
    if (p.required && !search.has(p.name)) problems.push(`query parameter ${p.name}: required`);
  }
  for (const [name, value] of search) {
    const spec = declared.get(name) ?? declared.get(name.replace(/\[\]$/, ""));
    if (!spec) {
      problems.push(`query parameter ${name}: not a parameter of this operation`);
      continue;
    }
    problems.push(...checkParamValue(spec, value, index, "query parameter"));
  }
  return problems;
}

/** Query and path values arrive as text: coerce them to the declared type, then validate. */
function checkParamValue(p: ParameterSpec, text: string, index: OpenApiIndex, kind: string): string[] {
  const schema = index.resolveRef(p.schema);
  let value: unknown = text;
  if (schema.type === "integer" || schema.type === "number") {
    value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  } else if (schema.type === "boolean") {
    value = text === "true" ? true : text === "false" ? false : text;
  } else if (schema.type === "array") {
    value = text.split(",");
  }
  return validateSchema({ value, schema, at: `${kind} ${p.name}`, resolveRef: index.resolveRef });
}

function checkBody(
  operation: OperationSpec,
  request: RequestToCheck,
  index: OpenApiIndex,
): { json?: unknown; problems: string[] } {
  const spec = operation.body;
  const hasBody = request.body.length > 0;
  if (!spec) {
    // GET and DELETE without a declared body: octokit sends none; anything else would be ignored by GitHub.
    return hasBody ? { problems: ["this operation takes no request body, but one was sent"] } : { problems: [] };
  }
  if (!hasBody) return { problems: spec.required ? ["request body: required"] : [] };
  const isJson = spec.contentTypes.includes("application/json");
  if (!isJson) return { problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(request.body);
  } catch {
    return { problems: [`request body: not JSON (${request.contentType ?? "no content-type"})`] };
  }
  const problems = validateSchema({
    value: json,
    schema: spec.schema,
    at: "body",
    resolveRef: index.resolveRef,
    strictProperties: true,
  });
  return { json, problems };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
