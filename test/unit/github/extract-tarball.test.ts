import { execFile } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ExtractLimits, extractTarball } from "../../../src/github/extract-tarball.ts";
import { SnapshotError } from "../../../src/github/snapshot-error.ts";
import { type TarSpec, tarball } from "../../helpers/github/tar-writer.ts";

const run = promisify(execFile);
const top = "acme-gitops-4b825dc";
let work: string;
let dest: string;

beforeEach(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), "undrift-tar-")));
  dest = join(work, "tree");
  await mkdir(dest);
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function* chunks(buffer: Buffer, size = 700): AsyncGenerator<Uint8Array> {
  // Odd-sized chunks, so headers and contents straddle chunk boundaries as they do off the network.
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

function extract(entries: TarSpec[], limits?: Partial<ExtractLimits>) {
  return extractTarball({ source: chunks(tarball(entries)), dest, ...(limits ? { limits } : {}) });
}

async function refusal(entries: TarSpec[], limits?: Partial<ExtractLimits>): Promise<SnapshotError> {
  const error = await extract(entries, limits).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SnapshotError);
  return error as SnapshotError;
}

const dir = (path: string): TarSpec => ({ path: `${top}/${path}`, type: "dir" });
const file = (path: string, content = "x"): TarSpec => ({ path: `${top}/${path}`, content });

describe("extracting a repository tarball", () => {
  it("writes the tree without GitHub's top-level folder, with modes, inner links and long names", async () => {
    const long = `${"deep/".repeat(30)}config.yaml`;
    const result = await extract([
      dir(""),
      dir("infra/"),
      file("infra/app.yaml", "kind: ConfigMap\n"),
      { path: `${top}/bin/render.sh`, content: "#!/bin/sh\n", mode: 0o755 },
      { path: `${top}/infra/base`, type: "symlink", linkTarget: "../common" },
      file("common/kustomization.yaml", "resources: []\n"),
      file(long, "long: true\n"),
    ]);
    expect(result).toEqual({ files: 4, bytes: 16 + 10 + 14 + 11, topFolder: top });
    expect(await readFile(join(dest, "infra/app.yaml"), "utf8")).toBe("kind: ConfigMap\n");
    expect((await stat(join(dest, "bin/render.sh"))).mode & 0o777).toBe(0o755);
    expect((await stat(join(dest, "infra/app.yaml"))).mode & 0o777).toBe(0o644);
    expect(await readlink(join(dest, "infra/base"))).toBe("../common");
    expect(await readFile(join(dest, long), "utf8")).toBe("long: true\n");
    expect((await readdir(dest)).sort()).toEqual(["bin", "common", "deep", "infra"]);
  });

  it("reads what git archive writes, as GitHub's tarball endpoint does", async () => {
    const repo = join(work, "repo");
    await mkdir(join(repo, "infra"), { recursive: true });
    await writeFile(join(repo, "infra/app.yaml"), "kind: ConfigMap\n");
    await writeFile(join(repo, `${"n".repeat(120)}.yaml`), "long: name\n");
    await symlink("infra/app.yaml", join(repo, "link.yaml"));
    const git = (...args: string[]) => run("git", ["-C", repo, ...args]);
    await git("init", "-q");
    await git("add", ".");
    await git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init");
    const { stdout: sha } = await git("rev-parse", "HEAD");
    const archive = join(work, "repo.tar.gz");
    await git("archive", "--format=tar.gz", `--prefix=acme-gitops-${sha.trim().slice(0, 7)}/`, "-o", archive, "HEAD");
    const result = await extractTarball({ source: chunks(await readFile(archive)), dest });
    expect(result.topFolder).toBe(`acme-gitops-${sha.trim().slice(0, 7)}`);
    expect(await readFile(join(dest, "infra/app.yaml"), "utf8")).toBe("kind: ConfigMap\n");
    expect(await readFile(join(dest, `${"n".repeat(120)}.yaml`), "utf8")).toBe("long: name\n");
    expect(await readlink(join(dest, "link.yaml"))).toBe("infra/app.yaml");
  });

  it("refuses a ../ path", async () => {
    const error = await refusal([dir(""), { path: `${top}/../escaped.yaml`, content: "x" }]);
    expect(error.message).toBe(`${top}/../escaped.yaml: a path with ".." that could leave the tree`);
    expect(error.problem).toBe("unsafe");
    await expect(stat(join(work, "escaped.yaml"))).rejects.toThrow();
  });

  it("refuses an absolute path", async () => {
    const error = await refusal([{ path: "/etc/cron.d/evil", content: "x" }]);
    expect(error.message).toBe("/etc/cron.d/evil: an absolute path");
  });

  it("refuses a path outside the top folder", async () => {
    const error = await refusal([dir(""), { path: "other/file", content: "x" }]);
    expect(error.message).toMatch(/outside the archive's top folder/);
  });

  it("refuses a symlink pointing outside the tree, relative or absolute", async () => {
    const relative = await refusal([
      dir(""),
      { path: `${top}/infra/secrets`, type: "symlink", linkTarget: "../../../etc" },
    ]);
    expect(relative.message).toBe("infra/secrets: a symbolic link to ../../../etc, which leads outside the tree");
    await rm(dest, { recursive: true });
    await mkdir(dest);
    const absolute = await refusal([dir(""), { path: `${top}/passwd`, type: "symlink", linkTarget: "/etc/passwd" }]);
    expect(absolute.message).toMatch(/passwd: a symbolic link to "\/etc\/passwd", outside the tree/);
  });

  it("refuses links that escape together though each looks inside (r -> ., a -> r/..)", async () => {
    const error = await refusal([
      dir(""),
      { path: `${top}/r`, type: "symlink", linkTarget: "." },
      { path: `${top}/a`, type: "symlink", linkTarget: "r/.." },
    ]);
    expect(error.message).toBe("a is a symbolic link to a folder outside the repository");
  });

  it("refuses to write through a symbolic link, even one that points inside", async () => {
    const error = await refusal([
      dir(""),
      { path: `${top}/link`, type: "symlink", linkTarget: "infra" },
      file("link/app.yaml"),
    ]);
    expect(error.message).toBe("link/app.yaml: written through the symbolic link link");
  });

  it("refuses a file that would replace a link planted before it", async () => {
    const error = await refusal([
      dir(""),
      { path: `${top}/app.yaml`, type: "symlink", linkTarget: "x" },
      file("app.yaml"),
    ]);
    expect(error.message).toBe("app.yaml: appears twice in the archive");
  });

  it.each(["char-device", "block-device", "fifo"] as const)("refuses a %s", async (type) => {
    const error = await refusal([dir(""), { path: `${top}/dev`, type }]);
    expect(error.message).toBe(`dev: a ${type.replace("-", " ")}, which a Git tree cannot hold`);
  });

  it("refuses a hard link to something that is not a file of the tree", async () => {
    const error = await refusal([dir(""), { path: `${top}/shadow`, type: "hardlink", linkTarget: "/etc/shadow" }]);
    expect(error.message).toBe("/etc/shadow: an absolute path");
  });

  it("refuses an archive whose files add up to more than the limit, a zip bomb included", async () => {
    const zeros = "\0".repeat(4 * 1024 * 1024);
    const archive = tarball([dir(""), file("a.bin", zeros), file("b.bin", zeros)]);
    expect(archive.length).toBeLessThan(64 * 1024);
    const error = await extractTarball({ source: chunks(archive), dest, limits: { maxBytes: 6 * 1024 * 1024 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "SnapshotError", problem: "too-large" });
    expect((error as Error).message).toBe(`the archive holds more than ${6 * 1024 * 1024} bytes of files`);
  });

  it("refuses a single file over the per-file limit before reading it, and too many entries", async () => {
    const big = await refusal([dir(""), file("big.yaml", "x".repeat(2048))], { maxFileBytes: 1024 });
    expect(big.message).toBe(`${top}/big.yaml: 2048 bytes, more than the 1024 allowed for one file`);
    await rm(dest, { recursive: true });
    await mkdir(dest);
    const many = await refusal([dir(""), file("a"), file("b"), file("c")], { maxEntries: 3 });
    expect(many.message).toBe("more than 3 entries in the archive");
  });

  it("refuses bytes that are no gzip or no tar", async () => {
    const notGzip = await extractTarball({ source: chunks(Buffer.from("<html>rate limited</html>")), dest }).catch(
      (e: unknown) => e,
    );
    expect(notGzip).toMatchObject({ name: "SnapshotError", problem: "corrupt" });
    const notTar = await extractTarball({ source: chunks(gzipSync(Buffer.alloc(1024, 7))), dest }).catch(
      (e: unknown) => e,
    );
    expect(notTar).toMatchObject({ name: "SnapshotError", problem: "corrupt" });
    expect((notTar as Error).message).toMatch(/header checksum mismatch/);
  });

  it("leaves nothing outside the destination whatever it refuses", async () => {
    await refusal([dir(""), { path: `${top}/../../outside`, content: "x" }]);
    expect((await readdir(work)).sort()).toEqual(["tree"]);
    expect((await lstat(dest)).isDirectory()).toBe(true);
  });
});
