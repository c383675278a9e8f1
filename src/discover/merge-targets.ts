// Configured and discovered targets as one list: a `targets:` entry named like
// a discovered target (on the same cluster) overrides what undrift decides on
// its own (mode, prune, rules, ignoreDifferences), and everything the
// reconciler's object says (path, namespace, overlays, tracking, field
// manager) follows the object, so a change to it in the cluster changes the
// target at the next scan.
import type { TargetConfig } from "../config/schema.ts";

export function mergeTargets(params: { configured: readonly TargetConfig[]; discovered: readonly TargetConfig[] }): {
  targets: TargetConfig[];
  problems: string[];
} {
  const problems: string[] = [];
  const configured = new Map(params.configured.map((t) => [t.name, t]));
  const overridden = new Set<string>();
  const discovered = params.discovered.flatMap((found) => {
    const written = configured.get(found.name);
    if (!written) return [found];
    if (written.cluster !== found.cluster) {
      problems.push(
        `target "${found.name}" is configured for cluster ${written.cluster} and discovered on ${found.cluster}; the configured one is kept`,
      );
      return [];
    }
    overridden.add(found.name);
    const { mode, prune, rules, ignoreDifferences } = written;
    return [{ ...found, mode, prune, rules, ignoreDifferences }];
  });
  return { targets: [...params.configured.filter((t) => !overridden.has(t.name)), ...discovered], problems };
}
