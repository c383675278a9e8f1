// A differential test: undrift reads every scalar spelling, and every YAML
// fixture, exactly as kubectl's own decoder (sigs.k8s.io/yaml) does, or both
// refuse it. kubectl decodes client-side (`create --dry-run=client`) a
// ConfigMap-shaped object whose extra field `v` carries any value.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseManifests } from "../../src/desired/parse-manifests.ts";
import { kubectl } from "../helpers/cluster.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const cases = (() => {
  const words = ["y", "yes", "true", "on", "n", "no", "false", "off", "null", "nan", "inf"];
  const cased = words.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase(), mixedCase(w)]);
  return [
    ...new Set([
      ...cased,
      ...[
        "0644",
        "0755",
        "0400",
        "0777",
        "00",
        "0",
        "-0",
        "08",
        "09",
        "0_644",
        "-0755",
        "+0755",
        "0o755",
        "0O755",
        "0o8",
      ],
      ...["0x1F", "0X1f", "-0x1F", "+0x1F", "0x", "0xG", "0x_1F", "0b101", "-0b101", "0B11", "0b2", "0x1p3"],
      ...["~", "", "1e3", "1E3", "1e+3", "1e-3", "1.5", ".5", "-.5", "+.5", "1.", ".", "12e", "1e", "1e_3", "1e400"],
      ...[".inf", ".Inf", ".INF", "-.inf", "+.inf", "+.INF", ".nan", ".NaN", ".NAN", ".iNf", "Infinity", "-nan"],
      ...["1_000", "1__0", "_1", "1_", "1_000.5", "6.8523015e+5", "685.230_15e+03", "+", "-", "0.1.2"],
      ...["9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615"],
      ...["18446744073709551616", "1:20", "190:20:30", "-1:20", "1:2:3"],
      ...["2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2002-1-1", "2001-13-45"],
      ...["abc", '"0755"', "'0755'", '"yes"', "'~'", "!!str 0755", "!!str yes", "!!int 0755", '"\\x41"'],
      ...["<<", "'<<'", "[0755, yes, ~]", "{a: 0x10, b: off}", "[.nan]"],
      // Explicit tags: go-yaml v2 resolves the text, then the tag must agree (an int may become a float).
      ...["!!float 1", '!!int "3"', "!!str 0644", "!!bool yes", '!!bool "yes"', "!!float 0755", "!!float 1e6"],
      ...["!!float 0x10", "!!int 0o755", "!!int 1_000", "!!int 1.5", "!!int 1e3", "!!bool 1", "!!bool yEs"],
      ...["!!float 18446744073709551615", "!!float 9223372036854775807", "!!int 18446744073709551615"],
      ...["!!null", '!!null ""', "!!null ~", "!!null abc", "!!null 0", "!!str", "!!int", "!!float .inf", "!!str .nan"],
      ...["!!str ~", "!!str 0x10", '!!float "1.5"', "!!int 2001-12-14", "!!float abc", "!!int 0o8"],
      ...["!!timestamp 2001-12-14", "!!timestamp 2001-12-14t21:59:43.10-05:00", "!!timestamp 2001-12-14 21:59:43.10"],
      ...["!!timestamp 2001-13-45", "!!timestamp 2001-02-29", "!!timestamp 2000-02-29", "!!timestamp 1"],
      ...["!!timestamp 2001-12-14T25:00:00Z", "!!timestamp 2001-12-14 21:59:43.10 -5", "!!timestamp abc"],
      ...["!!binary aGVsbG8=", '!!binary "%%%"', "!!binary aGVsbG8", "!!binary /w==", "!!binary 1"],
      ...["!<tag:yaml.org,2002:int> 7", "!!merge <<", "!foo bar", "!foo 12", "!!set {a}", "!!omap [a: 1]"],
      ...["!!pairs [a: 1, b: 2]", "!!seq {a: 1}", "!!str [1]", "!!map [1]"],
    ]),
  ];
})();

function mixedCase(word: string): string {
  return [...word].map((c, i) => (i % 2 === 1 ? c.toUpperCase() : c)).join("");
}

/** kubectl's decoding of each named file: its `v` field, or undefined when kubectl refused the file. */
async function kubectlDecodes(files: Map<string, string>): Promise<Map<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), "undrift-decode-"));
  dirs.push(dir);
  for (const [name, text] of files) writeFileSync(join(dir, `${name}.yaml`), text);
  // kubectl goes on past a file it refuses (exit 1), printing the others: one call for the whole table.
  const stdout = await kubectl(["create", "--dry-run=client", "-o", "json", "--validate=false", "-f", dir]).catch(
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  const decoded = new Map<string, unknown>();
  for (const chunk of stdout.split(/\n(?=\{\n)/).filter((c) => c.trim() !== "")) {
    const object = JSON.parse(chunk) as { metadata: { name: string }; v?: unknown };
    decoded.set(object.metadata.name, canonical(object.v ?? null));
  }
  return decoded;
}

/** undrift's decoding of `v` in `text`, or undefined when undrift refuses it. */
function undriftDecodes(text: string): unknown {
  try {
    const value = parseManifests({ file: "case.yaml", text })[0]?.value as { v?: unknown } | null;
    // What leaves undrift for the API server is JSON, as kubectl's output is.
    return canonical(JSON.parse(JSON.stringify(value?.v ?? null)));
  } catch {
    return undefined;
  }
}

const wrap = (name: string, body: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${body}`;

describe("undrift decodes manifests as kubectl does", () => {
  it("agrees with kubectl on every scalar spelling, as a value and as a key", async () => {
    const files = new Map<string, string>();
    cases.forEach((spelling, i) => {
      files.set(`value-${i}`, wrap(`value-${i}`, `v: ${spelling}\n`));
      files.set(`key-${i}`, wrap(`key-${i}`, `v:\n  ${spelling || '""'}: 1\n`));
    });
    const kube = await kubectlDecodes(files);
    const disagreements = [...files].flatMap(([name, text]) => {
      const ours = undriftDecodes(text);
      const theirs = kube.has(name) ? (kube.get(name) ?? null) : undefined;
      const spelling = cases[Number(name.split("-")[1])];
      return JSON.stringify(ours) === JSON.stringify(theirs)
        ? []
        : [{ name, spelling, undrift: ours, kubectl: theirs }];
    });
    expect(disagreements).toEqual([]);
    // The table is not vacuous: both accept most spellings and both refuse some.
    expect(kube.size).toBeGreaterThan(files.size / 2);
    expect(kube.size).toBeLessThan(files.size);
  });

  it("agrees with kubectl on keys written twice: the later one wins, as go-yaml keeps it", async () => {
    const bodies = [
      "v:\n  a: 1\n  a: 2\n",
      "v: 1\nv: 2\n",
      "v: {a: 1, a: 2}\n",
      "v:\n  0x1: a\n  1: b\n",
      "v:\n  yes: a\n  true: b\n",
      "v:\n  !!float 1: a\n  1.0: b\n",
      "v:\n  <<: {a: 1}\n  a: 2\n  a: 3\n",
      "v:\n  a: [1]\n  b: x\n  a: {c: 2}\n",
    ];
    const files = new Map(bodies.map((body, i) => [`twice-${i}`, wrap(`twice-${i}`, body)]));
    const kube = await kubectlDecodes(files);
    const disagreements = [...files].flatMap(([name, text]) => {
      const ours = undriftDecodes(text);
      const theirs = kube.has(name) ? (kube.get(name) ?? null) : undefined;
      return JSON.stringify(ours) === JSON.stringify(theirs) ? [] : [{ text, undrift: ours, kubectl: theirs }];
    });
    expect(disagreements).toEqual([]);
    expect(kube.size).toBe(bodies.length);
  });

  it("agrees with kubectl on every document of every YAML fixture", async () => {
    const root = resolve(import.meta.dirname, "../fixtures");
    const files = new Map<string, string>();
    const pieces = new Map<string, { file: string; text: string }>();
    for (const file of yamlFiles(root)) {
      readFileSync(file, "utf8")
        .split(/^---[ \t]*$/m)
        .forEach((text, i) => {
          const name = `fixture-${files.size}`;
          // Indented under `v:`, the document keeps its meaning (block scalars' indentation is relative).
          const body = text
            .split("\n")
            .map((line) => (line === "" ? line : `  ${line}`))
            .join("\n");
          files.set(name, wrap(name, `v:\n${body}\n`));
          pieces.set(name, { file: `${relative(root, file)} document ${i}`, text });
        });
    }
    const kube = await kubectlDecodes(files);
    const disagreements = [...files].flatMap(([name, text]) => {
      const ours = undriftDecodes(text);
      const theirs = kube.has(name) ? (kube.get(name) ?? null) : undefined;
      return JSON.stringify(ours) === JSON.stringify(theirs)
        ? []
        : [{ ...pieces.get(name), undrift: ours, kubectl: theirs }];
    });
    expect(disagreements.map((d) => `${d.file}: ${firstDifference(d.undrift, d.kubectl)}`)).toEqual([]);
    expect(files.size).toBeGreaterThan(50);
  });
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/i.test(entry.name) ? [path] : [];
  });
}

/** Where two decoded values first differ, as `path: undrift … kubectl …`, for a failure one can read. */
function firstDifference(a: unknown, b: unknown, path = ""): string {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return firstDifference(a[key], b[key], `${path}/${key}`);
    }
  }
  return `${path || "/"}: undrift ${JSON.stringify(a) ?? "refuses"}, kubectl ${JSON.stringify(b) ?? "refuses"}`;
}

/** Keys in order: kubectl prints them sorted, and order means nothing to the API server. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}
