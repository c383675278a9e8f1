// Whether text output is coloured, decided once for every command, as Node and
// most CLIs decide it: --color always|never wins; with auto (the default),
// FORCE_COLOR (anything but 0/false) forces colour and takes precedence over
// NO_COLOR (no-color.org: set and not empty), as in Node; otherwise colour only
// on a terminal that is not TERM=dumb. JSON and markdown are never coloured: the
// renderers that write them take no colour at all.
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
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== "0" && FORCE_COLOR.toLowerCase() !== "false";
  if (NO_COLOR) return false;
  return params.stream.isTTY === true && TERM !== "dumb";
}

/** For stdout, where every report goes. */
export function stdoutColor(choice: string | undefined): boolean {
  return useColor({ choice, stream: process.stdout, env: process.env });
}
