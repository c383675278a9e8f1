// Whether text output is coloured, decided once for every command: --color
// always|never wins; with auto (the default), NO_COLOR (no-color.org: set and not
// empty) turns colour off, then FORCE_COLOR (set, and not 0 or false) turns it on
// for a pipe too, as CI systems set it for their logs; otherwise colour only on a
// terminal that is not TERM=dumb. NO_COLOR is put first (Node puts FORCE_COLOR
// first): it is a person's standing wish, FORCE_COLOR usually a CI default, and a
// test or script that sets NO_COLOR must get plain text whatever it inherits.
// JSON and markdown are never coloured: their renderers take no colour at all.
import { colorChoices } from "./command-specs.ts";
import { UsageError } from "./errors.ts";

export function useColor(params: {
  choice: string | undefined;
  stream: { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}): boolean {
  const choice = params.choice ?? "auto";
  if (!(colorChoices as readonly string[]).includes(choice)) {
    throw new UsageError(`--color: expected one of ${colorChoices.join(", ")}, got "${choice}"`);
  }
  if (choice !== "auto") return choice === "always";
  const { FORCE_COLOR, NO_COLOR, TERM } = params.env;
  if (NO_COLOR) return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== "0" && FORCE_COLOR.toLowerCase() !== "false";
  return params.stream.isTTY === true && TERM !== "dumb";
}

/** For stdout, where every report goes. */
export function stdoutColor(choice: string | undefined): boolean {
  return useColor({ choice, stream: process.stdout, env: process.env });
}
