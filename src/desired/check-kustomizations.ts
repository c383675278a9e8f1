// Before kustomize runs: every kustomization the target reaches must be local.
// A remote base would make the render depend on the network and on code the
// repository does not hold (and reviewers never see), so it is refused.
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, posix } from "node:path";
import { findKustomization } from "./find-kustomization.ts";
import { parseManifests } from "./parse-manifests.ts";
import { RenderError } from "./render-error.ts";
import { repoPath } from "./repo-path.ts";

// Fields whose entries kustomize loads as files, folders or remote targets.
const loadedFields = ["resources", "bases", "components", "crds", "generators", "transformers", "validators"];

/** Throws RenderError naming the kustomization file of the first remote or out-of-repository entry reachable from `dir`. */
export async function checkKustomizations({ repoDir, dir }: { repoDir: string; dir: string }): Promise<void> {
  await check({ repoDir, dir, seen: new Set() });
}

async function check({ repoDir, dir, seen }: { repoDir: string; dir: string; seen: Set<string> }): Promise<void> {
  if (seen.has(dir)) return;
  seen.add(dir);
  const name = await findKustomization(join(repoDir, dir));
  if (!name) return; // a folder of plain resources; kustomize reports it if it needs a kustomization
  const file = posix.join(dir, name);
  const [doc] = parseManifests({ file, text: await readFile(join(repoDir, file), "utf8") });
  const kustomization = (doc?.value ?? {}) as Record<string, unknown>;
  if (kustomization.helmCharts !== undefined) {
    throw new RenderError(
      `${file}: helmCharts needs kustomize --enable-helm, which undrift never passes (it downloads charts); render the chart as a helm target`,
      { file },
    );
  }
  for (const field of loadedFields) {
    const entries = kustomization[field];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (typeof entry !== "string") continue; // inline generator/transformer configs load nothing
      if (isRemote(entry)) {
        throw new RenderError(
          `${file}: remote ${field} entry "${entry}" refused: undrift renders only what the repository holds; vendor it into the repository`,
          { file },
        );
      }
      const target = isAbsolute(entry) ? undefined : repoPath({ repoDir, abs: join(repoDir, dir, entry) });
      if (target === undefined) {
        throw new RenderError(`${file}: ${field} entry "${entry}" points outside the repository`, { file });
      }
      // A missing entry is kustomize's to report, with its own message.
      const isDir = await stat(join(repoDir, target)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (isDir) await check({ repoDir, dir: target, seen });
    }
  }
}

/** Remote forms kustomize accepts: URLs, scp-like git, github.com/ shorthands, `repo//path` and `?ref=`. */
export function isRemote(entry: string): boolean {
  return (
    entry.includes("://") ||
    entry.startsWith("git@") ||
    entry.startsWith("github.com/") ||
    entry.startsWith("gh:") ||
    entry.includes("?ref=") ||
    entry.includes("//")
  );
}
