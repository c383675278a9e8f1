// The plain renderer: every YAML and JSON file under the target folder, as
// `kubectl apply -R -f <folder>` would read them, in a stable order.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { outsideRepo } from "../config/outside-repo.ts";
import { symlinkLoop } from "../config/symlink-loop.ts";
import type { DesiredObject } from "../model/types.ts";
import { extractObjects, type SkippedDocument } from "./extract-objects.ts";
import { MAX_MANIFEST_BYTES, parseManifests } from "./parse-manifests.ts";
import { RenderError } from "./render-error.ts";
import { repoPath } from "./repo-path.ts";

const manifestFile = /\.(ya?ml|json)$/i;

/** Reads the manifests under `targetPath` (repo-relative); sources are repo-relative files and document indexes. */
export async function renderPlain({ repoDir, targetPath }: { repoDir: string; targetPath: string }): Promise<{
  objects: DesiredObject[];
  skipped: SkippedDocument[];
}> {
  const objects: DesiredObject[] = [];
  const skipped: SkippedDocument[] = [];
  const files = await manifestFiles({ repoDir, dir: join(repoDir, targetPath), skipped });
  // Code-unit order, not locale order, so every machine renders the same sequence.
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Read in parallel (thousands of small files), parse in order.
  const texts = await Promise.all(files.map((file) => readManifest({ repoDir, file })));
  for (const [i, file] of files.entries()) {
    const found = extractObjects({ documents: parseManifests({ file, text: texts[i]! }), file });
    objects.push(...found.objects);
    skipped.push(...found.skipped);
  }
  return { objects, skipped };
}

/** Repo-relative manifest files under `dir`, recursively; hidden entries (.git, .github, .yamllint.yml) are not manifests. */
async function manifestFiles({
  repoDir,
  dir,
  skipped,
}: {
  repoDir: string;
  dir: string;
  skipped: SkippedDocument[];
}): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const abs = join(dir, entry.name);
    const rel = repoPath({ repoDir, abs })!;
    if (entry.isDirectory()) {
      files.push(...(await manifestFiles({ repoDir, dir: abs, skipped })));
    } else if (entry.isFile() && manifestFile.test(entry.name)) {
      files.push(rel);
    } else if (entry.isSymbolicLink() && manifestFile.test(entry.name)) {
      // A link may point anywhere on the server; read it only when it stays inside the repository.
      const inside = await linkedFileInside({ repoDir, rel });
      if (inside) files.push(rel);
      else {
        // A link that loops is named as such: "does not lead inside" would send a person looking outside.
        const loop = await symlinkLoop({ root: await realpath(repoDir), path: rel });
        skipped.push({
          file: rel,
          document: 0,
          reason: loop
            ? "symbolic link that points back to itself (ELOOP)"
            : "symbolic link that does not lead to a file inside the repository",
        });
      }
    }
  }
  return files;
}

// The size is checked before reading, so a huge file costs no memory.
async function readManifest({ repoDir, file }: { repoDir: string; file: string }): Promise<string> {
  const { size } = await stat(join(repoDir, file));
  if (size > MAX_MANIFEST_BYTES) {
    throw new RenderError(
      `${file}: ${size} bytes, more than the ${MAX_MANIFEST_BYTES} bytes undrift reads from one manifest`,
      { file },
    );
  }
  return readFile(join(repoDir, file), "utf8");
}

/** Whether the link at `rel` leads to a file inside the repository, by the one check every path a repository names gets. */
async function linkedFileInside({ repoDir, rel }: { repoDir: string; rel: string }): Promise<boolean> {
  const root = await realpath(repoDir);
  if (await outsideRepo({ root, path: rel })) return false;
  return stat(join(root, rel)).then(
    (info) => info.isFile(),
    () => false,
  );
}
