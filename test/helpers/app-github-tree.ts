// A commit's files as GitHub lists and serves them, for the push handler's
// look at what kustomize targets render from: the recursive tree of the
// commit (`git ls-tree`) and raw reads of single files at it (`git show`).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { FakeRepo } from "./app-github.ts";
import type { GitHubMock } from "./github-mock.ts";

const run = promisify(execFile);

/** Declares `GET git/trees/<sha>?recursive=1` answered with the tree of `rev` (default HEAD) of `repoDir`. */
export async function expectTree(
  github: GitHubMock,
  gh: FakeRepo,
  params: { repoDir: string; sha: string; rev?: string },
): Promise<void> {
  const { stdout } = await run("git", ["-C", params.repoDir, "ls-tree", "-r", "-t", "--long", params.rev ?? "HEAD"]);
  const base = `https://api.github.com/repos/${gh.owner}/${gh.repo}/git`;
  const tree = stdout
    .trim()
    .split("\n")
    .map((line) => {
      const [meta = "", path = ""] = line.split("\t");
      const [mode = "", type = "", sha = "", size = "-"] = meta.split(/\s+/);
      return {
        path,
        mode,
        type,
        sha,
        ...(type === "blob" ? { size: Number(size) } : {}),
        url: `${base}/${type}s/${sha}`,
      };
    });
  github.expect({
    method: "GET",
    path: `/repos/${gh.owner}/${gh.repo}/git/trees/${params.sha}`,
    query: { recursive: "1" },
    reply: { body: { sha: params.sha, url: `${base}/trees/${params.sha}`, tree, truncated: false } },
  });
}

/** Declares a raw read of each of `files` at `sha`, answered with the file at `rev` (default HEAD) of `repoDir`. */
export async function expectFileReads(
  github: GitHubMock,
  gh: FakeRepo,
  params: { repoDir: string; sha: string; files: string[]; rev?: string },
): Promise<void> {
  for (const file of params.files) {
    const { stdout } = await run("git", ["-C", params.repoDir, "show", `${params.rev ?? "HEAD"}:${file}`]);
    github.expect({
      method: "GET",
      path: `/repos/${gh.owner}/${gh.repo}/contents/${file}`,
      query: { ref: params.sha },
      reply: { body: stdout, headers: { "content-type": "application/vnd.github.raw; charset=utf-8" } },
    });
  }
}
