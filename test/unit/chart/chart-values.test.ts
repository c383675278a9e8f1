// The chart's values as a user meets them: README.md lists every value with
// its default (the one values.yaml has), and values.yaml is what
// values.schema.json allows, as helm itself judges it (helm validates
// values against the schema on lint, template and install).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { toolPath } from "../../../src/desired/tools.ts";

const chartDir = join(import.meta.dirname, "../../../charts/undrift");
const run = promisify(execFile);

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
}

/**
 * The keys a reader looks up: a settings object's keys one by one (a schema node with `properties`),
 * a free-form map or list as one key; a list or map of settings objects as its own key and
 * `workers[].name` for its entries' keys (`clusters.<name>.inCluster` for a map's).
 */
function valueKeys(node: SchemaNode, prefix = ""): string[] {
  if (node.properties) {
    return Object.entries(node.properties).flatMap(([key, child]) =>
      prefix === "" && key === "global" ? [] : valueKeys(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  if (node.items?.properties) return [prefix, ...valueKeys(node.items, `${prefix}[]`)];
  if (typeof node.additionalProperties === "object" && node.additionalProperties.properties) {
    return [prefix, ...valueKeys(node.additionalProperties, `${prefix}.<name>`)];
  }
  return [prefix];
}

/** The value at a dotted key of values.yaml; `undefined` for keys inside list entries or map entries. */
function valueAt(values: unknown, key: string): unknown {
  if (key.includes("[]") || key.includes("<name>")) return undefined;
  return key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], values);
}

/** The table of README's "## Values" section: `key` to the default cell's text, as the reader sees them. */
function readmeRows(readme: string): Map<string, string> {
  const rows = new Map<string, string>();
  const section = readme.slice(readme.indexOf("\n## Values\n")).split(/\n## /)[1] ?? "";
  for (const match of section.matchAll(/^\| `([^`]+)` \| ([^|]*) \|/gm)) rows.set(match[1]!, match[2]!.trim());
  return rows;
}

const schema = JSON.parse(readFileSync(join(chartDir, "values.schema.json"), "utf8")) as SchemaNode;
const values = parse(readFileSync(join(chartDir, "values.yaml"), "utf8")) as Record<string, unknown>;
const readme = readFileSync(join(chartDir, "README.md"), "utf8");

/** values.yaml's keys, down to those the schema takes whole (a map, a list, resources): `web.replicas`, `clusters`. */
function valuesKeys(value: unknown, whole: Set<string>, prefix = ""): string[] {
  if (whole.has(prefix) || typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => valuesKeys(v, whole, prefix ? `${prefix}.${k}` : k));
}

describe("charts/undrift: its values", () => {
  const schemaKeys = valueKeys(schema);

  it("README lists every value, each with the default values.yaml gives it", () => {
    const rows = readmeRows(readme);
    const keys = [...new Set([...valuesKeys(values, new Set(schemaKeys)), ...schemaKeys])];
    expect(keys.filter((key) => !rows.has(key))).toEqual([]);
    expect([...rows.keys()].filter((key) => !keys.includes(key))).toEqual([]);
    for (const key of keys) {
      const value = valueAt(values, key);
      if (value !== undefined)
        expect({ key, default: rows.get(key) }).toEqual({ key, default: `\`${JSON.stringify(value)}\`` });
    }
  });

  it("every key of values.yaml is one the schema describes", () => {
    // The schema refuses unknown keys (additionalProperties: false): a key of values.yaml it lacks breaks every install.
    expect(valuesKeys(values, new Set(schemaKeys)).filter((key) => !schemaKeys.includes(key))).toEqual([]);
  });

  it("helm accepts values.yaml against values.schema.json (lint --strict)", async () => {
    const { stdout } = await run(toolPath("helm"), ["lint", "--strict", chartDir]);
    expect(stdout).toContain("1 chart(s) linted, 0 chart(s) failed");
  });
});
