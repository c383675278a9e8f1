// node:util parseArgs with errors a person can act on: one line, as a UsageError.
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { UsageError } from "./errors.ts";

export function parseCommandArgs<T extends ParseArgsOptionsConfig>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split("\n")[0]! : String(error), { cause: error });
  }
}
