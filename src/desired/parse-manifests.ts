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
import { type KeyLines, yamlToKubernetesJson } from "./yaml-to-kubernetes-json.ts";

/** Largest manifest file undrift reads (kubectl's own request limit is 3 MiB per object); past it, an error. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

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
  // The yaml package only parses here (its 1.1 version, for tags); values are resolved as go-yaml v2 does.
  const docs = parseAllDocuments(text, {
    lineCounter,
    prettyErrors: false,
    version: "1.1",
    merge: true,
    // Duplicate keys are go-yaml's to judge (yaml-to-kubernetes-json.ts), not the yaml package's.
    uniqueKeys: false,
  });
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  // Tags are resolved as go-yaml v2 resolves them (resolve-tagged-scalar.ts), not by the yaml package's schema.
  const problemOf = (doc: { errors: YAMLError[]; warnings: YAMLError[] }) =>
    [...doc.errors, ...doc.warnings].find((p) => p.code !== "TAG_RESOLVE_FAILED");
  const fail = (error: YAMLError | Error, offset: number): never => {
    const line = lineOf(offset);
    const reason = error.message.split("\n")[0]?.trim() || error.name;
    throw new RenderError(`${file}:${line}: ${reason}`, { file, line, cause: error });
  };
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
