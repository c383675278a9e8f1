import { describe, expect, it } from "vitest";
import { MAX_MANIFEST_BYTES, parseManifests } from "../../../src/desired/parse-manifests.ts";
import { RenderError } from "../../../src/desired/render-error.ts";
import { MAX_ALIAS_NODES, MAX_DOCUMENT_DEPTH } from "../../../src/desired/yaml-to-kubernetes-json.ts";

const decode = (yaml: string) =>
  parseManifests({ file: "apps/web.yaml", text: `v: ${yaml}\n` })[0]!.value as { v: unknown };
const failure = (text: string) => {
  try {
    parseManifests({ file: "apps/web.yaml", text });
  } catch (error) {
    expect(error).toBeInstanceOf(RenderError);
    return (error as RenderError).message;
  }
  throw new Error("parsed without an error");
};

describe("decoding manifests as kubectl and Flux do (sigs.k8s.io/yaml, go-yaml v2)", () => {
  it.each([
    ["0755", 493],
    ["0644", 420],
    ["0o17", 15],
    ["0x1F", 31],
    ["0b101", 5],
    ["08", 8],
    ["1_000", 1000],
    ["1e3", 1000],
    [".5", 0.5],
    ["yes", true],
    ["On", true],
    ["n", false],
    ["OFF", false],
    ["yEs", "yEs"],
    ["~", null],
    ["Null", null],
    ["1:20", "1:20"],
    ["2001-12-14", "2001-12-14"],
    ["'0755'", "0755"],
    ["!!str 0755", "0755"],
    ["1e400", "1e400"],
    [".", "."],
  ])("reads %s as %j", (spelling, expected) => {
    expect(decode(spelling).v).toEqual(expected);
  });

  it("makes keys strings as sigs.k8s.io/yaml does: `y` and `n` are booleans, octal keys decimal", () => {
    const value = parseManifests({ file: "f.yaml", text: "y: 1\nn: 2\n0644: 3\n1.5: 4\n" })[0]!.value;
    expect(value).toEqual({ true: 1, false: 2, "420": 3, "1.5": 4 });
  });

  it("merges `<<` keys in place, as go-yaml v2 does", () => {
    const text = "base: &b {a: 1, b: 2}\nm:\n  a: 0\n  <<: *b\n  b: 9\n";
    expect((parseManifests({ file: "f.yaml", text })[0]!.value as { m: unknown }).m).toEqual({ a: 1, b: 9 });
  });

  it("refuses .nan and .inf, which JSON cannot carry, naming the line", () => {
    expect(failure("a: 1\nb: .inf\n")).toBe(
      "apps/web.yaml:2: .inf: JSON has no Infinity (kubectl refuses it too); quote it for a string",
    );
  });

  it.each([
    ["!!float 1", 1],
    ['!!int "3"', 3],
    ["!!str 0644", "0644"],
    ["!!bool yes", true],
    ["!!float 0755", 493],
    ["!!binary aGVsbG8=", "hello"],
    ["!!timestamp 2001-12-14", "2001-12-14"],
    ["!foo bar", "bar"],
  ])("reads the tagged %s as %j, resolving the text first and then the tag", (spelling, expected) => {
    expect(decode(spelling).v).toEqual(expected);
  });

  it("names the line of a tag the text does not fit, in go-yaml's words", () => {
    expect(failure("a: 1\nb: !!int 1.5\n")).toBe("apps/web.yaml:2: cannot decode a !!float as a !!int");
    expect(failure("a: !!bool 1\n")).toBe("apps/web.yaml:1: cannot decode a !!int as a !!bool");
    expect(failure("a:\n  - !!binary '%%'\n")).toBe("apps/web.yaml:2: !!binary value contains invalid base64 data");
  });

  it("writes a tagged float key as Go prints a float", () => {
    const value = parseManifests({ file: "f.yaml", text: "!!float 1e6: a\n!!int 0x10: b\n" })[0]!.value;
    expect(value).toEqual({ "1e+06": "a", "16": "b" });
  });

  it("stops at the nesting limit with a clear error instead of exhausting the stack", () => {
    const deep = `a: ${"[".repeat(5000)}${"]".repeat(5000)}\n`;
    expect(failure(deep)).toMatch(/^apps\/web.yaml:1: .*/);
    const justOver = `a: ${"[".repeat(MAX_DOCUMENT_DEPTH + 1)}${"]".repeat(MAX_DOCUMENT_DEPTH + 1)}\n`;
    expect(failure(justOver)).toBe(
      `apps/web.yaml:1: nested deeper than ${MAX_DOCUMENT_DEPTH} levels, the limit for a manifest`,
    );
  });

  it("stops an alias bomb at the alias limit", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (const [i, name] of ["b", "c", "d", "e", "f"].entries()) {
      const prev = ["a", "b", "c", "d", "e"][i];
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(",")}]`);
    }
    expect(failure(`${lines.join("\n")}\n`)).toMatch(`aliases expand to more than ${MAX_ALIAS_NODES} nodes`);
  });

  it("refuses a manifest larger than the size limit, naming the file", () => {
    const text = `a: "${"x".repeat(MAX_MANIFEST_BYTES)}"\n`;
    expect(failure(text)).toBe(
      `apps/web.yaml: ${MAX_MANIFEST_BYTES + 6} bytes, more than the ${MAX_MANIFEST_BYTES} bytes undrift reads from one manifest`,
    );
  });
});
