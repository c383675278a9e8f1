// A target by its name in a repository's config: how the CLI resolves --target at its
// edge, once per command; a stage takes the TargetConfig and never looks it up again.
import { UndriftError } from "../model/undrift-error.ts";
import type { RepoConfig, TargetConfig } from "./schema.ts";

/** A target name the config does not have. */
export class UnknownTargetError extends UndriftError {
  override name = "UnknownTargetError";
  readonly permanent = true;
}

export function pickTarget(config: RepoConfig, name: string): TargetConfig {
  const target = config.targets.find((t) => t.name === name);
  if (!target) {
    const names = config.targets.map((t) => t.name).join(", ");
    throw new UnknownTargetError(`target "${name}" is not in .github/undrift.yml (it has: ${names})`);
  }
  return target;
}
