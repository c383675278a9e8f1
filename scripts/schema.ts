// npm run schema: writes schema/undrift.schema.json from the config's zod
// schema. A unit test fails when the committed file is out of date.
import { writeFile } from "node:fs/promises";
import { repoConfigJsonSchema } from "../src/config/json-schema.ts";

const target = new URL("../schema/undrift.schema.json", import.meta.url);
await writeFile(target, `${JSON.stringify(repoConfigJsonSchema(), null, 2)}\n`);
console.error(`wrote ${target.pathname}`);
