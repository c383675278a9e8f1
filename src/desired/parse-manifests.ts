// Multi-document YAML (and JSON, which is YAML) to plain values, decoded as the
// Kubernetes YAML decoder decodes them: what kubectl refuses fails the file,
// naming its line, and a key written twice keeps its later value, as kubectl
// and helm keep it (kustomize refuses it, in its own render).
//
// Which decoder: whatever renders a target, what reaches the cluster is YAML
// text decoded by sigs.k8s.io/yaml (go-yaml v2, YAML 1.1): `kubectl apply -f`
// of a file, Flux's kustomize-controller reading `kustomize build` output
// (kustomize itself keeps scalars as written, through kyaml / go-yaml v3), and
// helm's client reading `helm template` output. So plain files and rendered
// output are all decoded the same way: `0755` is 493 and `yes` is true.
import { LineCounter, parseAllDocuments, type YAMLError } from "yaml";
import { RenderError } from "./render-error.ts";
import { type KeyLines, MAX_DOCUMENT_DEPTH, yamlToKubernetesJson } from "./yaml-to-kubernetes-json.ts";

/** Largest manifest file undrift reads (kubectl's own request limit is 3 MiB per object); past it, an error. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

const tooDeep = `nested deeper than ${MAX_DOCUMENT_DEPTH} levels, the limit for a manifest`;

/** One YAML document of a file: its value, or `null` when it is empty (only comments or nothing). */
export interface ParsedDocument {
  index: number;
  value: unknown;
  /** 1-based line where the document's content starts. */
  line: number;
  /** The line of each key of each mapping in `value`. */
  keyLines: KeyLines;
}

/**
 * Parses every document of `text`; throws RenderError `<file>:<line>: <why>` on the first problem.
 * `maxBytes` is for rendered output, which holds a whole target rather than one file.
 */
export function parseManifests({
  file,
  text,
  maxBytes = MAX_MANIFEST_BYTES,
}: {
  file: string;
  text: string;
  maxBytes?: number;
}): ParsedDocument[] {
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    throw new RenderError(`${file}: ${size} bytes, more than the ${maxBytes} bytes undrift reads from one manifest`, {
      file,
    });
  }
  const lineCounter = new LineCounter();
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  // Tags are resolved as go-yaml v2 resolves them (resolve-tagged-scalar.ts), not by the yaml package's schema.
  const problemOf = (doc: { errors: YAMLError[]; warnings: YAMLError[] }) =>
    [...doc.errors, ...doc.warnings].find((p) => p.code !== "TAG_RESOLVE_FAILED");
  const fail = (error: YAMLError | Error, offset: number): never => {
    const line = lineOf(offset);
    const reason = parserReason(error);
    throw new RenderError(`${file}:${line}: ${reason}`, { file, line, cause: error });
  };
  // The yaml package only parses here (its 1.1 version, for tags); values are resolved as go-yaml v2 does.
  // Duplicate keys are go-yaml's to judge (yaml-to-kubernetes-json.ts), not the yaml package's.
  const parse = () =>
    parseAllDocuments(text, { lineCounter, prettyErrors: false, version: "1.1", merge: true, uniqueKeys: false });
  let docs: ReturnType<typeof parse>;
  try {
    docs = parse();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return fail(error, 0);
  }
  if ("empty" in docs) {
    const problem = problemOf(docs);
    if (problem) fail(problem, problem.pos[0]);
    return [];
  }
  return docs.map((doc, index) => {
    const problem = problemOf(doc);
    if (problem) fail(problem, problem.pos[0]);
    const keyLines: KeyLines = new WeakMap();
    const start = doc.contents?.range[0] ?? doc.range[0];
    if (doc.contents === null) return { index, value: null, line: lineOf(start), keyLines };
    const value = yamlToKubernetesJson({
      doc,
      keyLines,
      lineOf,
      fail: (message, offset) => fail(new Error(message), offset),
    });
    return { index, value, line: lineOf(start), keyLines };
  });
}

// The parser's messages that quote the text they stopped at, which in a Secret may be its value.
const quoting = [
  [
    /^(Not a YAML token|Block scalar header includes extra characters|Not a valid tag|Could not resolve tag): .*$/,
    "$1",
  ],
  [/^(Unresolved tag|Ordered maps must not include duplicate keys): .*$/, "$1"],
  [/^Invalid escape sequence .*$/, "Invalid escape sequence"],
  [/^The .* tag has no suffix$/, "A tag has no suffix"],
  [/^Verbatim tags aren't resolved, so .* is invalid\.$/, "Verbatim tags aren't resolved"],
  [/^Unresolved plain scalar .*$/, "Unresolved plain scalar"],
  [/: ".*"$/, ""],
] as const;

/** The parser's first line without any text of the file it quotes. */
function parserReason(error: Error): string {
  const first = error.message.split("\n")[0]?.trim() || error.name;
  // The parser recurses per level of nesting, so thousands of `[` overflow its stack before the depth check runs.
  if (/Maximum call stack size exceeded/.test(first)) return tooDeep;
  return quoting.reduce<string>((reason, [pattern, replacement]) => reason.replace(pattern, replacement), first);
}
