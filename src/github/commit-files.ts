// One commit of file changes through the Git Data API, in as few requests as
// GitHub allows: text files go inline in the tree (`content`), so only large
// or non-UTF-8 files cost a blob; then one tree on top of the base tree and
// one commit whose parent is the base commit.
import type { FileChange } from "../remediate/codify/codify-result.ts";
import type { Writes } from "./github-writes.ts";

/** Larger files go through a blob: the tree request carries all inline contents at once. */
export const inlineLimit = 512 * 1024;
const inlineBudget = 8 * 1024 * 1024;

export interface CommitFilesParams {
  writes: Writes;
  /** The parent commit and its tree. */
  base: { sha: string; treeSha: string };
  /** `after` absent deletes the file. */
  files: FileChange[];
  message: string;
}

type TreeEntry = { path: string; mode: "100644"; type: "blob"; sha?: string | null; content?: string };

/** The new commit's SHA; in a dry run, a placeholder naming what would be committed. */
export async function commitFiles(params: CommitFilesParams): Promise<string> {
  const { writes, base } = params;
  const tree: TreeEntry[] = [];
  let inlined = 0;
  for (const file of params.files) {
    const path = gitPath(file.file);
    if (file.after === undefined) {
      tree.push({ path, mode: "100644", type: "blob", sha: null });
      continue;
    }
    const bytes = Buffer.byteLength(file.after);
    if (file.after.isWellFormed() && bytes <= inlineLimit && inlined + bytes <= inlineBudget) {
      inlined += bytes;
      tree.push({ path, mode: "100644", type: "blob", content: file.after });
      continue;
    }
    const content = Buffer.from(file.after).toString("base64");
    const blob = await writes.request(
      "POST /repos/{owner}/{repo}/git/blobs",
      { content, encoding: "base64" },
      { summary: `create blob for ${path} (${bytes} bytes)`, step: `create blob for ${path}` },
    );
    tree.push({ path, mode: "100644", type: "blob", sha: blob?.sha ?? `<blob ${path}>` });
  }
  const created = await writes.request(
    "POST /repos/{owner}/{repo}/git/trees",
    { base_tree: base.treeSha, tree },
    { summary: `create tree with ${tree.length} changed files on ${base.sha.slice(0, 7)}`, step: "create tree" },
  );
  const commit = await writes.request(
    "POST /repos/{owner}/{repo}/git/commits",
    // No author: GitHub then signs the commit as the app, and it shows as verified.
    { message: params.message, tree: created?.sha ?? "", parents: [base.sha] },
    { summary: `create commit on ${base.sha.slice(0, 7)}: ${firstLine(params.message)}`, step: "create commit" },
  );
  return commit?.sha ?? "<new commit>";
}

/** Repository paths as Git spells them: forward slashes, no leading `./` or `/`. */
function gitPath(file: string): string {
  const path = file.replaceAll("\\", "/").replace(/^(\.\/|\/)+/, "");
  if (path === "" || path.split("/").some((s) => s === ".." || s === "." || s === "")) {
    throw new RangeError(`${file}: not a path inside the repository`);
  }
  return path;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}
