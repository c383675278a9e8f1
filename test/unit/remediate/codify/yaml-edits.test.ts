// The YAML editor's edges: what it refuses (rather than guess), how new
// scalars are written, JSON manifests, List documents and emptied files.
import { describe, expect, it } from "vitest";
import { removeYamlDocument } from "../../../../src/remediate/codify/yaml/remove-yaml-document.ts";
import { renderScalar } from "../../../../src/remediate/codify/yaml/render-scalar.ts";
import { setYamlValue } from "../../../../src/remediate/codify/yaml/set-yaml-value.ts";
import { YamlEditError } from "../../../../src/remediate/codify/yaml/yaml-edit-error.ts";

const set = (text: string, path: string[], value: unknown, file = "f.yaml") =>
  setYamlValue({ file, text, document: 0, path, value });

describe("setYamlValue", () => {
  it("returns the text unchanged, byte for byte, when the value is already there", () => {
    const text = "a:\n  b: 'x'   # why\n";
    expect(set(text, ["f:a", "f:b"], "x")).toBe(text);
  });

  it("fills a key that has no value yet, under it", () => {
    expect(set("metadata:\n  name: web\n  annotations:\nspec: {}\n", ["f:metadata", "f:annotations", "f:a"], "b")).toBe(
      "metadata:\n  name: web\n  annotations:\n    a: b\nspec: {}\n",
    );
  });

  it("quotes a new value as its siblings are quoted", () => {
    expect(set('data:\n  a: "1"\n  b: "2"\n', ["f:data", "f:c"], "3")).toBe('data:\n  a: "1"\n  b: "2"\n  c: "3"\n');
    expect(
      set(
        "data:\n  a: 'x'\n",
        ["f:data", "b"].map((t) => (t.startsWith("f:") ? t : `f:${t}`)),
        "y",
      ),
    ).toBe("data:\n  a: 'x'\n  b: 'y'\n");
  });

  it("writes a value that would read as another type with quotes, in YAML 1.1 as in 1.2", () => {
    for (const value of ["yes", "on", "0755", "1e3", "null", "~", "- x", "a: b", "#c", ""]) {
      const out = set("data:\n  k: v\n", ["f:data", "f:k"], value);
      expect(out).toBe(`data:\n  k: ${JSON.stringify(value)}\n`);
    }
  });

  it("edits an overridden key explicitly when a merge key supplies it, and refuses to remove one it cannot", () => {
    const text = "base: &base {a: 1, b: 2}\nthing:\n  <<: *base\n  c: 3\n";
    expect(set(text, ["f:thing", "f:a"], 5)).toBe("base: &base {a: 1, b: 2}\nthing:\n  <<: *base\n  c: 3\n  a: 5\n");
    expect(() => set(text, ["f:thing", "f:b"], undefined)).toThrow(YamlEditError);
    expect(() => set(text, ["f:thing", "f:b"], undefined)).toThrow(
      "f.yaml: document 0: thing.b: the edited document would not read back as intended",
    );
  });

  it("refuses to leave a document empty and names the file, document and field", () => {
    expect(() => set("only: 1\n", ["f:only"], undefined)).toThrow(
      "f.yaml: document 0: only: the document would be left empty",
    );
    expect(() => setYamlValue({ file: "f.yaml", text: "a: 1\n", document: 3, path: ["f:a"], value: 2 })).toThrow(
      "f.yaml: has no document 3",
    );
    expect(() => set("a: [\n", ["f:a"], 1)).toThrow(/^f\.yaml:\d+: /);
  });

  it("rewrites a JSON manifest as JSON in its own indentation", () => {
    const text = '{\n    "kind": "ConfigMap",\n    "data": {"a": "1"}\n}\n';
    expect(set(text, ["f:data", "f:a"], "2", "c.json")).toBe(
      '{\n    "kind": "ConfigMap",\n    "data": {\n        "a": "2"\n    }\n}\n',
    );
  });

  it("keeps comment lines inside a removed block", () => {
    const text = "a:\n  keep: 1\n  gone:\n    # about x\n    x: 1\n";
    expect(set(text, ["f:a", "f:gone"], undefined)).toBe("a:\n  keep: 1\n    # about x\n");
  });
});

describe("removeYamlDocument", () => {
  it("removes the file when its only object goes, even with a header comment", () => {
    expect(removeYamlDocument({ file: "f.yaml", text: "# header\n---\na: 1\n", document: 0 })).toBeUndefined();
    expect(removeYamlDocument({ file: "f.json", text: '{"a": 1}\n', document: 0 })).toBeUndefined();
  });

  it("removes one item of a List document, or the whole List with its last item", () => {
    const list =
      "apiVersion: v1\nkind: List\nitems:\n  - kind: ConfigMap\n    metadata: {name: a}\n  - kind: ConfigMap\n    metadata: {name: b}\n";
    expect(removeYamlDocument({ file: "l.yaml", text: list, document: 0, item: 0 })).toBe(
      "apiVersion: v1\nkind: List\nitems:\n  - kind: ConfigMap\n    metadata: {name: b}\n",
    );
    const one = "apiVersion: v1\nkind: List\nitems:\n  - kind: ConfigMap\n    metadata: {name: a}\n";
    expect(removeYamlDocument({ file: "l.yaml", text: one, document: 0, item: 0 })).toBeUndefined();
  });
});

describe("renderScalar", () => {
  const render = (value: unknown, style?: string, inFlow = false) =>
    renderScalar({ value, style, inFlow, blockIndent: 2, lineBreak: "\n" }).text;

  it("keeps the style it is given when the value allows it", () => {
    expect(render("x", "QUOTE_SINGLE")).toBe("'x'");
    expect(render("it's", "QUOTE_SINGLE")).toBe("'it''s'");
    expect(render("x", "QUOTE_DOUBLE")).toBe('"x"');
    expect(render("a\nb\n", "BLOCK_LITERAL")).toBe("|\n  a\n  b\n");
    expect(render("a\nb", "PLAIN")).toBe("|-\n  a\n  b\n");
    expect(render("one line", "BLOCK_FOLDED")).toBe(">-\n  one line\n");
  });

  it("falls back to double quotes where the style cannot carry the value", () => {
    expect(render("a,b", "PLAIN", true)).toBe('"a,b"');
    expect(render(" lead\nx", "BLOCK_LITERAL")).toBe('" lead\\nx"');
    expect(render("tab\there", "PLAIN")).toBe('"tab\\there"');
    expect(render("bell\u0007", "QUOTE_SINGLE")).toBe('"bell\\u0007"');
    expect(render("a\nb", "PLAIN", true)).toBe('"a\\nb"');
  });

  it("writes numbers, booleans and null plain", () => {
    expect(render(5, "QUOTE_DOUBLE")).toBe("5");
    expect(render(false)).toBe("false");
    expect(render(null)).toBe("null");
  });
});
