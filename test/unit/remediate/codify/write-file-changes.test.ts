// Codify writes every edit or none: a file that cannot be written leaves the
// working tree byte for byte as it was, and the error names that file.
// Tests run as root, whom chmod does not stop: a folder or a file is put in the way instead.
import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FileChange } from "../../../../src/remediate/codify/codify-result.ts";
import { writeFileChanges } from "../../../../src/remediate/codify/write-file-changes.ts";
import { tempRepo } from "../../desired/temp-repo.ts";

const original = {
  "manifests/a.yaml": "# a\nkind: ConfigMap\nmetadata: {name: a}\n",
  "manifests/b.yaml": "kind: ConfigMap\nmetadata: {name: b}\n",
  "manifests/c.yaml": "kind: ConfigMap\nmetadata: {name: c}\n",
};

/** Every path under `dir` with its bytes (a folder as `<dir>`, a link as `-> target`): the tree to compare. */
async function snapshot(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(join(dir, prefix))).sort()) {
    const path = prefix ? `${prefix}/${name}` : name;
    const stat = await lstat(join(dir, path));
    if (stat.isSymbolicLink()) out[path] = `-> ${await readlink(join(dir, path))}`;
    else if (stat.isDirectory()) Object.assign(out, { [path]: "<dir>" }, await snapshot(dir, path));
    else out[path] = `${(stat.mode & 0o777).toString(8)} ${await readFile(join(dir, path), "utf8")}`;
  }
  return out;
}

// Sorted by file, as codify's result is: a.yaml and b.yaml come before the file that fails.
const changes: FileChange[] = [
  {
    file: "manifests/a.yaml",
    before: original["manifests/a.yaml"],
    after: "# a\nkind: ConfigMap\nmetadata: {name: a2}\n",
  },
  { file: "manifests/b.yaml", before: original["manifests/b.yaml"] },
  { file: "manifests/c.yaml", before: original["manifests/c.yaml"], after: "kind: ConfigMap\nmetadata: {name: c2}\n" },
  { file: "manifests/new/d.yaml", after: "kind: ConfigMap\nmetadata: {name: d}\n" },
];

describe("writeFileChanges", () => {
  it("writes every change: edits, a removal, a file in a new folder, through a link to a file of the target", async () => {
    const repoDir = await tempRepo(original);
    await symlink("c.yaml", join(repoDir, "manifests/alias.yaml"));
    // A file replaced by a rename keeps its mode, as one written in place did.
    await chmod(join(repoDir, "manifests/a.yaml"), 0o600);
    const viaLink = changes.map((c) => (c.file === "manifests/c.yaml" ? { ...c, file: "manifests/alias.yaml" } : c));
    await writeFileChanges({ repoDir, changes: viaLink });
    expect(await snapshot(repoDir)).toEqual({
      manifests: "<dir>",
      "manifests/a.yaml": `600 ${changes[0]!.after}`,
      // The link stays a link; the file it leads to takes the edit, as before codify wrote through links.
      "manifests/alias.yaml": "-> c.yaml",
      "manifests/c.yaml": `644 ${changes[2]!.after}`,
      "manifests/new": "<dir>",
      "manifests/new/d.yaml": `644 ${changes[3]!.after}`,
    });
  });

  it("changes no file when a file it must replace is a folder, and names that file", async () => {
    const repoDir = await tempRepo(original);
    // A non-empty folder where c.yaml was: the edits of a.yaml and b.yaml come first and must be undone.
    await rm(join(repoDir, "manifests/c.yaml"));
    await mkdir(join(repoDir, "manifests/c.yaml"));
    await writeFile(join(repoDir, "manifests/c.yaml/keep.txt"), "mine\n");
    const before = await snapshot(repoDir);

    const error = await writeFileChanges({ repoDir, changes }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^manifests\/c\.yaml: cannot be written: .*; no file was changed$/);
    expect((error as Error).message).not.toContain("\n");
    expect(await snapshot(repoDir)).toEqual(before);
  });

  it("changes no file when the folder of a new file cannot be made, a file being in the way, and names that file", async () => {
    const repoDir = await tempRepo({ ...original, "manifests/new": "a file, not a folder\n" });
    const before = await snapshot(repoDir);

    const error = await writeFileChanges({ repoDir, changes }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^manifests\/new\/d\.yaml: cannot be written: .*; no file was changed$/);
    expect(await snapshot(repoDir)).toEqual(before);
  });

  it("changes no file when a file it must remove is a folder, and leaves no new folder behind", async () => {
    const repoDir = await tempRepo({ "manifests/a.yaml": original["manifests/a.yaml"], "manifests/b.yaml/x": "x\n" });
    const before = await snapshot(repoDir);

    const error = await writeFileChanges({ repoDir, changes: [changes[0]!, changes[1]!, changes[3]!] }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^manifests\/b\.yaml: cannot be removed: .*; no file was changed$/);
    expect(await snapshot(repoDir)).toEqual(before);
  });
});
