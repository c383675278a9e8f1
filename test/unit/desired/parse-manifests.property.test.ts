// The manifest decoder on random bytes and YAML-ish text: objects, or a RenderError naming the file and
// the line, never another error and never a hang. A file decoded wrongly would be drift nobody made.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractObjects } from "../../../src/desired/extract-objects.ts";
import { parseManifests } from "../../../src/desired/parse-manifests.ts";
import { RenderError } from "../../../src/desired/render-error.ts";

const file = "apps/web.yaml";

const token = fc.constantFrom(
  "apiVersion: v1",
  "kind: ConfigMap",
  "kind: Secret",
  "kind: List",
  "items:",
  "metadata:",
  "  name: a",
  "  namespace: n",
  "  generateName: g-",
  "metdata:",
  "data:",
  "  k: v",
  "  password: hunter2!",
  "  token: aGk=",
  "stringData:",
  "{",
  "}",
  "[",
  "]",
  ": ",
  "- ",
  "---",
  "...",
  "&a ",
  "*a",
  "<<: *a",
  "<<: [*a]",
  "? ",
  "!!binary ",
  "!!int ",
  "!!float ",
  "!!map ",
  "!custom ",
  ".nan",
  "-.inf",
  "0x1F",
  "0644",
  "0b101",
  "1_000",
  "1e400",
  "yes",
  "~",
  "null",
  "'",
  '"',
  "\\",
  "#",
  "|",
  ">-",
  "\t",
  "\n",
  "  ",
  "%YAML 1.1",
  "%TAG ! tag:x,2000:",
  "\uFEFF",
  "9".repeat(25),
  "__proto__: x",
);

// A real manifest with a few lines replaced or inserted: close to what people write, so most of it decodes.
const manifest = [
  "apiVersion: v1",
  "kind: Secret",
  "metadata:",
  "  name: db",
  "  labels: {app: web}",
  "data:",
  "  user: YWRtaW4=",
  "stringData:",
  "  password: hunter2!",
  "---",
  "apiVersion: v1",
  "kind: ConfigMap",
  "metadata: {name: settings}",
  "data:",
  "  mode: '0644'",
];
const edited = fc.array(fc.tuple(fc.nat(manifest.length), token, fc.boolean()), { maxLength: 6 }).map((edits) => {
  const lines = [...manifest];
  for (const [at, line, insert] of edits) lines.splice(at, insert ? 0 : 1, line);
  return lines.join("\n");
});

const text = fc.oneof(
  edited,
  fc.array(token, { maxLength: 80 }).map((t) => t.join("")),
  fc.array(fc.oneof(token, fc.constant("\n")), { maxLength: 80 }).map((t) => t.join("\n")),
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString("utf8")),
);

/** Decodes `text` as a manifest file, then as rendered output; returns the errors. */
function decode(input: string): unknown[] {
  const errors: unknown[] = [];
  for (const rendered of [false, true]) {
    try {
      extractObjects({ documents: parseManifests({ file, text: input }), file, rendered });
    } catch (error) {
      errors.push(error);
    }
  }
  return errors;
}

describe("the manifest decoder on random input", () => {
  it("gives objects or a RenderError naming file and line, quickly", { timeout: 240_000 }, () => {
    fc.assert(
      fc.property(text, (input) => {
        // CPU time, not the wall clock: the work the decoder did, which a busy machine does not add to.
        const cpu = process.cpuUsage();
        for (const error of decode(input)) {
          expect(error).toBeInstanceOf(RenderError);
          const { message, file: named, line } = error as RenderError;
          expect(named).toBe(file);
          expect(line).toBeGreaterThanOrEqual(1);
          expect(message).toMatch(new RegExp(`^${file}:${line}: `));
          expect(message).not.toContain("\n");
          expect(message).not.toContain("hunter2");
          expect(message).not.toContain("call stack");
        }
        const used = process.cpuUsage(cpu);
        expect((used.user + used.system) / 1000).toBeLessThan(5_000);
      }),
      { numRuns: 2_000 },
    );
  });

  it("says a deeply nested file is too deep, whichever way it nests", () => {
    const n = 5_000;
    const cases = {
      "flow sequences": `${"[".repeat(n)}${"]".repeat(n)}`,
      "flow mappings": `${"{a: ".repeat(n)}1${"}".repeat(n)}`,
      "block mappings": `${Array.from({ length: 1_000 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")} 1`,
      "block sequences": `${Array.from({ length: 1_000 }, (_, i) => `${" ".repeat(i)}-`).join("\n")} 1`,
      "an object's data": `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: ${"[".repeat(n)}${"]".repeat(n)}`,
    };
    for (const [what, input] of Object.entries(cases)) {
      const errors = decode(input);
      expect(errors, what).toHaveLength(2);
      for (const error of errors) {
        expect(error, what).toBeInstanceOf(RenderError);
        expect((error as Error).message, what).toMatch(
          /^apps\/web\.yaml:\d+: nested deeper than 200 levels, the limit for a manifest$/,
        );
      }
    }
  });

  it("stops an alias bomb within its bound", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
      .concat(
        Array.from(
          { length: 8 },
          (_, i) => `${"b".repeat(i + 1)}: &${"a".repeat(i + 2)} [${`*${"a".repeat(i + 1)}, `.repeat(10)}]`,
        ),
      )
      .join("\n");
    // Stopped by the node count, which the message names, rather than expanded (10^9 nodes would never return).
    const errors = decode(bomb);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect((error as Error).message).toMatch(/aliases expand to more than 100000 nodes/);
  });
});
