// The JSON Schemas of every `--output json`, generated from the zod schemas
// that describe them, for `npm run schema` (schema/*.schema.json) and its test.
// Objects stay open (io "input" adds no additionalProperties: false): later
// versions may add fields, and a validator of today's schema must accept them.
import { z } from "zod";
import { codifyResultSchema } from "./codify/codify-json-schema.ts";
import { previewReportSchema } from "./preview/preview-json-schema.ts";
import { scanReportSchema } from "./report-json-schema.ts";
import { revertResultSchema } from "./revert/revert-json-schema.ts";

/** The zod schema of each command's JSON output, by the file its JSON Schema is written to under schema/. */
export const outputSchemas = {
  "report.schema.json": scanReportSchema,
  "preview.schema.json": previewReportSchema,
  "revert.schema.json": revertResultSchema,
  "codify.schema.json": codifyResultSchema,
} as const;

/** The JSON Schema of one output, with its $id; draft-07 like the config's, the draft most validators read. */
export function outputJsonSchema(file: keyof typeof outputSchemas): Record<string, unknown> {
  const { $schema, title, ...rest } = z.toJSONSchema(outputSchemas[file], {
    io: "input",
    target: "draft-7",
    // A count's implied maximum (Number.MAX_SAFE_INTEGER) says nothing to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  });
  return { $schema, $id: `https://undrift.dev/schema/${file}`, title, ...rest };
}
