// Golden files: a given set of edits on tricky YAML gives a byte-exact file.
// Inputs and expected outputs live in test/fixtures/codify/<case>.{input,expected}.yaml;
// UPDATE_GOLDEN=1 rewrites the expected files (review every diff before keeping one).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FieldPath } from "../../../../src/drift/field-path.ts";
import { removeYamlDocument } from "../../../../src/remediate/codify/yaml/remove-yaml-document.ts";
import { setYamlValue } from "../../../../src/remediate/codify/yaml/set-yaml-value.ts";

const fixtures = join(import.meta.dirname, "../../../fixtures/codify");

type Edit = { document?: number; path: FieldPath; value: unknown } | { removeDocument: number };

const set = (path: FieldPath, value: unknown, document = 0): Edit => ({ document, path, value });
const remove = (path: FieldPath, document = 0): Edit => ({ document, path, value: undefined });
const container = (name: string): FieldPath => [
  "f:spec",
  "f:template",
  "f:spec",
  "f:containers",
  `k:${JSON.stringify({ name })}`,
];
const env = (c: string, name: string): FieldPath => [...container(c), "f:env", `k:${JSON.stringify({ name })}`];

const cases: Record<string, { why: string; edits: Edit[] }> = {
  comments: {
    why: "comments above, beside and below edited, added and removed fields all stay",
    edits: [
      set(["f:spec", "f:replicas"], 3),
      set([...container("web"), "f:image"], "nginx:1.28"),
      set(env("web", "DEBUG"), { name: "DEBUG", value: "1" }),
      remove(["f:metadata", "f:annotations", "f:oncall"]),
      set(["f:metadata", "f:labels", "f:tier"], "front"),
      set([...container("web"), "f:resources"], { limits: { memory: "256Mi" } }),
    ],
  },
  flow: {
    why: "flow maps and lists stay flow; an atomic list keeps the items it shares",
    edits: [
      set(["f:metadata", "f:labels", "f:version"], "v2"),
      remove(["f:metadata", "f:labels", "f:tier"]),
      set(["f:metadata", "f:annotations", "f:owner"], "shop"),
      set(["f:spec", "f:containers", 'k:{"name":"web"}', "f:image"], "nginx:1.28"),
      set(["f:spec", "f:containers", 'k:{"name":"web"}', "f:args"], ["--port", "9090", "--verbose", "--color"]),
      set(["f:spec", "f:tolerations"], [{ key: "dedicated", operator: "Exists" }]),
      remove(["f:spec", "f:nodeSelector", "f:zone"]),
      set(["f:spec", "f:nodeSelector", "f:region"], "eu"),
    ],
  },
  "block-scalars": {
    why: "block scalars stay blocks at their indentation, with the chomping their value needs",
    edits: [
      set(["f:data", "f:start.sh"], "#!/bin/sh\nexec nginx -g 'daemon off;'\n"),
      set(["f:data", "f:motd"], "Welcome to the shop"),
      set(["f:data", "f:keep"], "kept\nand more\n\n"),
      set(["f:data", "f:plain"], "now\ntwo lines\n"),
      set(["f:data", "f:banner"], "still indented by four"),
    ],
  },
  quoting: {
    why: "each scalar keeps its quotes; plain values that would read as another type get quotes",
    edits: [
      set(["f:data", "f:plain"], "debug"),
      set(["f:data", "f:single"], "debug"),
      set(["f:data", "f:double"], "debug"),
      set(["f:data", "f:number"], "3"),
      set(["f:data", "f:flag"], "false"),
      set(["f:data", "f:path"], "yes"),
      set(["f:data", "f:note"], "it's changed"),
      set(["f:data", "f:added"], "0755"),
    ],
  },
  anchors: {
    why: "anchors stay; an alias that would see an edit of its anchor gets its own copy first",
    edits: [
      set(["f:spec", "f:replicas"], 3),
      set(["f:metadata", "f:labels", "f:tier"], "front"),
      set([...env("sidecar", "MODE"), "f:value"], "slow"),
    ],
  },
  "multi-document": {
    why: "a leading comment, ---, ... and the other documents stay as they were",
    edits: [set(["f:data", "f:a"], "2", 0), set(["f:data", "f:b"], "2", 1), set(["f:data", "f:d"], "four", 2)],
  },
  "remove-document": {
    why: "removing a document takes its --- and its own comments, nothing before it",
    edits: [{ removeDocument: 1 }],
  },
  crlf: {
    why: "CRLF line endings stay CRLF, in old and new lines",
    edits: [
      set(["f:spec", "f:replicas"], 2),
      set([...env("web", "B"), "f:value"], "3"),
      set(env("web", "C"), { name: "C", value: "4" }),
      set(["f:metadata", "f:labels"], { app: "crlf" }),
      remove(env("web", "A")),
    ],
  },
  "merge-keys": {
    why: "list items are found by merge key, not position, with defaulted key fields",
    edits: [
      remove(env("web", "B")),
      set([...env("web", "C"), "f:value"], "30"),
      set(env("web", "D"), { name: "D", value: "4" }),
      set([...container("web"), "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}', "f:name"], "http"),
      remove([...container("web"), "f:ports", 'k:{"containerPort":9090,"protocol":"TCP"}']),
      set([...container("worker"), "f:image"], "worker:2"),
      set(container("istio-proxy"), { name: "istio-proxy", image: "istio/proxyv2:1.24" }),
    ],
  },
  indentation: {
    why: "new lines follow the file's indent unit and its unindented sequences",
    edits: [
      set(env("web", "B"), { name: "B", value: "2" }),
      set(["f:metadata", "f:labels"], { app: "wide" }),
      set([...container("web"), "f:ports"], [{ containerPort: 80 }]),
    ],
  },
};

function applyEdits(file: string, text: string, edits: Edit[]): string {
  let out = text;
  for (const edit of edits) {
    if ("removeDocument" in edit) out = removeYamlDocument({ file, text: out, document: edit.removeDocument }) ?? "";
    else out = setYamlValue({ file, text: out, document: edit.document ?? 0, path: edit.path, value: edit.value });
  }
  return out;
}

describe("codify YAML edits: golden files", () => {
  for (const [name, { why, edits }] of Object.entries(cases)) {
    it(`${name}: ${why}`, () => {
      const input = readFileSync(join(fixtures, `${name}.input.yaml`), "utf8");
      const expectedFile = join(fixtures, `${name}.expected.yaml`);
      const actual = applyEdits(`${name}.input.yaml`, input, edits);
      if (process.env.UPDATE_GOLDEN || !existsSync(expectedFile)) writeFileSync(expectedFile, actual);
      expect(actual).toBe(readFileSync(expectedFile, "utf8"));
    });
  }
});
