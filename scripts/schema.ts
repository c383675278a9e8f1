// npm run schema: writes schema/undrift.schema.json from the config's zod
// schema, and schema/{report,preview,revert,codify}.schema.json from the zod
// schemas of the JSON outputs. Unit tests fail when a committed file is out of date.
import { writeFile } from "node:fs/promises";
import { repoConfigJsonSchema } from "../src/config/json-schema.ts";
import { outputJsonSchema, outputSchemas } from "../src/report/output-json-schemas.ts";

const schemas: Record<string, Record<string, unknown>> = { "undrift.schema.json": repoConfigJsonSchema() };
for (const file of Object.keys(outputSchemas) as Array<keyof typeof outputSchemas>) {
  schemas[file] = outputJsonSchema(file);
}
for (const [file, schema] of Object.entries(schemas)) {
  const target = new URL(`../schema/${file}`, import.meta.url);
  await writeFile(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.error(`wrote ${target.pathname}`);
}
