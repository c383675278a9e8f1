// The JSON Schema editors use to complete and check `.github/undrift.yml`,
// generated from the zod schema so the two cannot drift apart.
import { z } from "zod";
import { repoConfigSchema } from "./schema.ts";

/** The JSON Schema of the config as people write it (defaults optional), for `schema/undrift.schema.json`. */
export function repoConfigJsonSchema(): Record<string, unknown> {
  // draft-07: the draft that YAML editors (yaml-language-server, JetBrains) support best.
  const schema = z.toJSONSchema(repoConfigSchema, { io: "input", target: "draft-7" });
  const { $schema, required: _none, ...rest } = schema;
  return {
    $schema,
    $id: "https://undrift.dev/schema/undrift.schema.json",
    title: "undrift repository configuration (.github/undrift.yml)",
    ...rest,
    // Said in the zod schema by a refinement, which JSON Schema cannot read: targets, discover: or both.
    anyOf: [{ required: ["targets"] }, { required: ["discover"] }],
  };
}
