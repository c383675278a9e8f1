import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { repoConfigJsonSchema } from "../../../src/config/json-schema.ts";

describe("schema/undrift.schema.json", () => {
  it("is what `npm run schema` generates from the config schema (run it after changing the schema)", async () => {
    const committed = await readFile(new URL("../../../schema/undrift.schema.json", import.meta.url), "utf8");
    expect(committed).toBe(`${JSON.stringify(repoConfigJsonSchema(), null, 2)}\n`);
  });

  it("leaves defaulted fields optional for editors and documents every field", () => {
    const schema = repoConfigJsonSchema() as {
      $id: string;
      anyOf: Array<{ required: string[] }>;
      properties: { targets: { items: { required: string[]; properties: Record<string, { description?: string }> } } };
    };
    expect(schema.$id).toMatch(/undrift\.schema\.json$/);
    // targets:, discover: (the reconcilers' objects as targets), or both.
    expect(schema.anyOf).toEqual([{ required: ["targets"] }, { required: ["discover"] }]);
    const target = schema.properties.targets.items;
    expect(target.required).toEqual(["name", "cluster", "path"]);
    const undocumented = Object.entries(target.properties).filter(([, field]) => !field.description);
    expect(undocumented).toEqual([]);
  });
});
