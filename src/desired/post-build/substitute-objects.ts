// kustomize-controller's post-build step (fluxcd/pkg/kustomize SubstituteVariables,
// called per built object): each object is written out as YAML, its `${...}`
// expressions are expanded (parse-template.ts, expand-template.ts), and the text
// is read again, so a value substituted into a plain scalar takes its YAML type
// (`replicas: ${n}` is a number, as in Flux; quote it in the variable to keep a
// string). An object labelled or annotated `kustomize.toolkit.fluxcd.io/substitute:
// disabled` is left as built, and so is every object when there is no variable
// at all, unless the Kustomization's substituteStrategy is Always.
//
// Fields that Secret data reached are found by expanding a second time with
// each such expression's result marked, so reports can mask them (drift/mask.ts).
import { stringify } from "yaml";
import type { KubeObject } from "../../model/types.ts";
import { parseManifests } from "../parse-manifests.ts";
import { RenderError } from "../render-error.ts";
import { expandTemplate, type Lookup, VariableNotSetError } from "./expand-template.ts";
import { parseTemplate, type TemplateNode, TemplateSyntaxError } from "./parse-template.ts";

/** The variables of one Kustomization, read from the cluster at scan time (live/read-post-build-variables.ts). */
export interface PostBuildVariables {
  /** Values by name: each substituteFrom object in order, then `substitute` over them; newlines removed, as Flux does. */
  values: Record<string, string>;
  /** Where each name's value came from (`spec.postBuild.substituteFrom[1]`), for errors. */
  from: Record<string, string>;
  /** The names whose value came from a Secret: never shown. */
  secret: string[];
}

/** Flux's rule for a variable name (kustomize_varsub.go varsubRegex; [:alpha:] is ASCII there). */
export const VARIABLE_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;
export const SUBSTITUTE_LABEL = "kustomize.toolkit.fluxcd.io/substitute";

const OPEN = "\uE000";
const CLOSE = "\uE001";

/** One object after substitution, with the JSON pointers of the fields Secret data reached ("" is all of it). */
export interface Substituted {
  object: KubeObject;
  sensitive: string[];
}

/**
 * `objects` with the variables substituted; throws RenderError naming `where` (the Kustomization), the field the
 * bad variable came from or the object at fault, and never a value.
 */
export function substituteObjects(params: {
  objects: KubeObject[];
  variables: PostBuildVariables;
  always: boolean;
  strict: boolean;
  where: string;
}): Substituted[] {
  const { variables, where } = params;
  const vars = new Map(Object.entries(variables.values));
  if (vars.size === 0 && !params.always) return params.objects.map((object) => ({ object, sensitive: [] }));
  const secret = new Set(variables.secret);
  let checked = false;
  return params.objects.map((object) => {
    if (disabled(object)) return { object, sensitive: [] };
    // Flux checks the names before each object it substitutes: with none to substitute, a bad name passes.
    if (!checked) checkNames(variables, where);
    checked = true;
    const subject = `${object.kind}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ""}${object.metadata.name}`;
    const text = stringify(object, { version: "1.1", lineWidth: 0 });
    // Without a `$` the text expands to itself: the object is kept as built (and not re-read).
    if (!text.includes("$")) return { object, sensitive: [] };
    let template: TemplateNode[];
    try {
      template = parseTemplate(text);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      throw new RenderError(`${where}: spec.postBuild: ${subject}: variable substitution failed: ${error.message}`);
    }
    const lookup: Lookup = { vars, strict: params.strict };
    const expanded = expand(template, lookup, `${where}: spec.postBuild: ${subject}`);
    const substituted = reread(expanded, `${where}: spec.postBuild: ${subject}`);
    if (![...secret].some((name) => vars.has(name))) return { object: substituted, sensitive: [] };
    const traced = expand(
      template,
      { ...lookup, trace: { secret: (n) => secret.has(n), open: OPEN, close: CLOSE } },
      "",
    );
    if (!traced.includes(OPEN)) return { object: substituted, sensitive: [] };
    let marked: unknown;
    try {
      marked = parseManifests({ file: "", text: traced })[0]?.value;
    } catch {
      return { object: substituted, sensitive: [""] };
    }
    return { object: substituted, sensitive: markedPaths(marked, "") };
  });
}

function disabled(object: KubeObject): boolean {
  const { labels, annotations } = object.metadata;
  return labels?.[SUBSTITUTE_LABEL] === "disabled" || annotations?.[SUBSTITUTE_LABEL] === "disabled";
}

function checkNames(variables: PostBuildVariables, where: string): void {
  for (const name of Object.keys(variables.values)) {
    if (VARIABLE_NAME.test(name)) continue;
    const field = variables.from[name] ?? "spec.postBuild";
    throw new RenderError(
      `${where}: ${field}: "${name}" is not a valid variable name (must match ${VARIABLE_NAME.source})`,
    );
  }
}

function expand(template: TemplateNode[], lookup: Lookup, subject: string): string {
  try {
    return expandTemplate(template, lookup);
  } catch (error) {
    if (!(error instanceof VariableNotSetError)) throw error;
    throw new RenderError(`${subject}: variable substitution failed: ${error.message}`);
  }
}

/** The expanded text read as kustomize-controller reads it again; the parser's words only (no cause: it may quote a value). */
function reread(text: string, subject: string): KubeObject {
  let value: unknown;
  try {
    value = parseManifests({ file: "", text })[0]?.value;
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^:\d+: /, "") : "";
    throw new RenderError(`${subject}: the substituted object is not valid YAML${why ? ` (${why})` : ""}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RenderError(`${subject}: the substituted object is not a mapping`);
  }
  return value as KubeObject;
}

/** JSON pointers of the fields holding a mark; a marked key marks its whole mapping. */
function markedPaths(value: unknown, pointer: string): string[] {
  if (typeof value === "string") return value.includes(OPEN) ? [pointer] : [];
  if (typeof value !== "object" || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.some(([key]) => key.includes(OPEN))) return [pointer];
  return entries.flatMap(([key, v]) => markedPaths(v, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`));
}
