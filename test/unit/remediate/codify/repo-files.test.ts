// Codify edits only files of the target's own folder: no link, at any step of the path, may lead elsewhere.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepoFiles } from "../../../../src/remediate/codify/repo-files.ts";
import { tempRepo } from "../../desired/temp-repo.ts";

describe("RepoFiles.editProblem", () => {
  let repoDir: string;
  let outside: string;
  let files: RepoFiles;
  beforeEach(async () => {
    repoDir = await tempRepo({
      "apps/web/cm.yaml": "kind: ConfigMap\n",
      "apps/base/shared.yaml": "kind: ConfigMap\n",
    });
    outside = await mkdtemp(join(tmpdir(), "undrift-outside-"));
    files = new RepoFiles({ repoDir, targetPath: "apps/web" });
  });
  afterEach(() => rm(outside, { recursive: true, force: true }));
  const link = (to: string, at: string) => symlink(to, join(repoDir, at));

  it("lets codify edit a file of the target, or create one, or edit through a link that stays in the target", async () => {
    await link("cm.yaml", "apps/web/alias.yaml");
    expect(await files.editProblem("apps/web/cm.yaml")).toBeUndefined();
    expect(await files.editProblem("apps/web/new/created.yaml")).toBeUndefined();
    expect(await files.editProblem("apps/web/alias.yaml")).toBeUndefined();
  });

  it("refuses a file outside the target's folder", async () => {
    expect(await files.editProblem("apps/base/shared.yaml")).toBe(
      "apps/base/shared.yaml lies outside the target's folder apps/web",
    );
  });

  it.each([
    ["into a shared base", "../base/shared.yaml"],
    ["out of the repository", "/etc/hostname"],
    ["to nothing", "../base/gone.yaml"],
  ])("refuses a file that is a link %s", async (_, to) => {
    await link(to, "apps/web/linked.yaml");
    expect(await files.editProblem("apps/web/linked.yaml")).toBe(
      "apps/web/linked.yaml is a symbolic link to a file outside the target's folder",
    );
  });

  it("refuses a file under a folder that is a link out of the repository", async () => {
    await link(outside, "apps/web/sub");
    expect(await files.editProblem("apps/web/sub/x.yaml")).toBe(
      "apps/web/sub/x.yaml: apps/web/sub is a symbolic link to a folder outside the repository",
    );
  });

  it("refuses a file under a folder that is a link into a shared base", async () => {
    await link("../base", "apps/web/sub");
    expect(await files.editProblem("apps/web/sub/shared.yaml")).toBe(
      "apps/web/sub/shared.yaml: a folder on the way is a symbolic link out of the target's folder",
    );
  });
});
