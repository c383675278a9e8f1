// Links in a working tree that lead outside it: no renderer reads through them.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyRepo } from "../../../src/desired/copy-repo.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";

const canary = "canary-4b1d-outside-the-repo";

describe("links that leave the repository", { timeout: 30_000 }, () => {
  let base: string;
  let repo: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "undrift-links-"));
    repo = join(base, "repo");
    await mkdir(join(base, "outside"), { recursive: true });
    await writeFile(join(base, "outside/secret.txt"), `${canary}\n`);
    await writeFile(join(base, "outside/values.yaml"), `leak: ${canary}\n`);
    await writeFile(
      join(base, "outside/t.yaml"),
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leaked}\ndata: {v: ${canary}}\n`,
    );
    await mkdir(join(repo, "chart/templates"), { recursive: true });
    await writeFile(join(repo, "chart/Chart.yaml"), "apiVersion: v2\nname: c\nversion: 0.1.0\n");
    await writeFile(join(repo, "chart/values.yaml"), "leak: none\n");
    await writeFile(
      join(repo, "chart/templates/cm.yaml"),
      [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata: {name: files}",
        "data:",
        '  get: {{ .Files.Get "passwd" | quote }}',
        '  secret: {{ .Files.Get "secret.txt" | quote }}',
        '  glob: {{ range $path, $_ := .Files.Glob "linked/*" }}{{ $.Files.Get $path | quote }}{{ end }}',
        "  values: {{ .Values.leak | quote }}",
        "",
      ].join("\n"),
    );
    await symlink("/etc/passwd", join(repo, "chart/passwd"));
    await symlink(join(base, "outside/secret.txt"), join(repo, "chart/secret.txt"));
    await symlink(join(base, "outside"), join(repo, "chart/linked"));
    await symlink(join(base, "outside/t.yaml"), join(repo, "chart/templates/linked.yaml"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("helm renders a chart without what its links outside lead to", async () => {
    const { objects } = await renderTarget({
      repoDir: repo,
      target: { name: "c", path: "chart", render: "helm", namespace: "n" },
    });
    const text = JSON.stringify(objects);
    expect(text).not.toContain(canary);
    expect(text).not.toContain("root:");
    expect(objects.map((o) => o.object.metadata.name)).toEqual(["files"]);
  });

  it("helm refuses a values file linked outside rather than reading it", async () => {
    await symlink(join(base, "outside/values.yaml"), join(repo, "chart/values-prod.yaml"));
    const failed = await renderTarget({
      repoDir: repo,
      target: { name: "c", path: "chart", render: "helm", helm: { valuesFiles: ["values-prod.yaml"] } },
    }).catch((e: unknown) => e as Error);
    expect(String(failed)).not.toContain(canary);
    expect((failed as Error).message).toBe("chart/values-prod.yaml: values file does not exist");
  });

  it("refuses to render a target folder that is a link outside", async () => {
    await symlink(join(base, "outside"), join(repo, "outside-link"));
    await expect(
      renderTarget({ repoDir: repo, target: { name: "o", path: "outside-link", render: "auto" } }),
    ).rejects.toThrow('target "o": path: outside-link is a symbolic link to a folder outside the repository');
  });

  it("says a target path that is a file is not a folder", async () => {
    await expect(
      renderTarget({ repoDir: repo, target: { name: "o", path: "chart/Chart.yaml", render: "auto" } }),
    ).rejects.toThrow('target "o": path: chart/Chart.yaml is a file; a target\'s path is a folder');
  });

  it("says a target folder that is a symbolic link to itself is one (an app snapshot has no config check)", async () => {
    await symlink("loop", join(repo, "loop"));
    const failed = (await renderTarget({ repoDir: repo, target: { name: "l", path: "loop", render: "auto" } }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(failed.message).toBe('target "l": path: loop: a symbolic link that points back to itself (ELOOP)');
  });

  it("the scratch copy keeps links inside and drops links out, dangling ones too", async () => {
    await symlink("Chart.yaml", join(repo, "chart/inside.yaml"));
    await symlink(join(base, "gone"), join(repo, "chart/dangling"));
    const dest = join(base, "copy");
    await copyRepo({ repoDir: repo, dest });
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(join(dest, "chart"))).sort()).toEqual([
      "Chart.yaml",
      "inside.yaml",
      "templates",
      "values.yaml",
    ]);
  });
});
