// docs/report.md is where users read the JSON outputs: it must name every field the schemas describe.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { outputJsonSchema, outputSchemas } from "../../../src/report/output-json-schemas.ts";

const files = Object.keys(outputSchemas) as Array<keyof typeof outputSchemas>;

describe("docs/report.md", () => {
  it("names every field of every output, so none goes undocumented", async () => {
    const doc = await readFile(new URL("../../../docs/report.md", import.meta.url), "utf8");
    const names = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      const { properties } = node as { properties?: Record<string, unknown> };
      for (const [name, child] of Object.entries(properties ?? {})) {
        names.add(name);
        walk(child);
      }
      for (const child of Object.values(node)) if (typeof child === "object") walk(child);
    };
    for (const file of files) walk(outputJsonSchema(file));
    // A field is named alone (`objects`) or as the end of its path (`resources[].note`).
    const undocumented = [...names].filter((name) => !new RegExp(`\`(?:[\\w\\[\\]]+\\.)?${name}\``).test(doc));
    expect(undocumented).toEqual([]);
  });
});
