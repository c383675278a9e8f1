// The pull request the preview benchmark reviews: the generated repository
// committed as `main`, then a branch whose one commit changes 1% of the objects
// (a ConfigMap value, a Deployment's replicas, a Service label), adds 1% (new
// apps, in new files) and deletes 1% (documents removed from their files). The
// working tree is left at the branch, so `kubectl diff -f` sees head.
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type BenchKind, type BenchObject, type BenchRepo, keyOf, writeApp } from "./generate.ts";

const run = promisify(execFile);

export const baseBranch = "main";
export const headBranch = "bench-change";

export interface HeadChange {
  changed: Array<{ key: string; how: string }>;
  added: string[];
  deleted: string[];
}

async function git(dir: string, args: string[]): Promise<void> {
  const identity = [
    "-c",
    "user.name=undrift bench",
    "-c",
    "user.email=bench@undrift.invalid",
    "-c",
    "commit.gpgsign=false",
  ];
  await run("git", ["-C", dir, ...identity, ...args]);
}

/** `git init` and one commit of everything, on `main`. */
export async function commitBase(repo: BenchRepo): Promise<void> {
  await git(repo.dir, ["init", "--quiet", `--initial-branch=${baseBranch}`]);
  await git(repo.dir, ["add", "--all"]);
  await git(repo.dir, ["commit", "--quiet", "--message", `${repo.objects.length} objects of ${repo.target}`]);
}

// What head changes in each kind's document: a value Git sets, so a server-side apply changes it.
const edits: Record<Exclude<BenchKind, "Namespace">, { how: string; edit: (doc: string) => string }> = {
  ConfigMap: { how: "data value", edit: (doc) => doc.replace(/^ {2}LOG_LEVEL: \w+/m, "  LOG_LEVEL: error") },
  Deployment: {
    how: "replicas",
    edit: (doc) => doc.replace(/^ {2}replicas: (\d+)$/m, (_, r: string) => `  replicas: ${Number(r) + 3}`),
  },
  Service: { how: "label", edit: (doc) => doc.replace(/^ {4}tier: backend$/m, "    tier: edge") },
};

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Branches off `main` and commits head: `count` objects changed and `count`
 * deleted (chosen at random among those not in `avoid`, the drifted ones, so
 * each object has one reason to differ), and `count` new objects.
 */
export async function commitHead(params: { repo: BenchRepo; count: number; avoid: Set<string> }): Promise<HeadChange> {
  const { repo, count } = params;
  const candidates = shuffled(repo.objects.filter((o) => !params.avoid.has(keyOf(o))));
  if (candidates.length < 2 * count) throw new Error(`not enough objects to change and delete ${count} of each`);
  const toChange = candidates.slice(0, count);
  const toDelete = candidates.slice(count, 2 * count);
  await git(repo.dir, ["checkout", "--quiet", "-b", headBranch]);

  // Edit file by file: a file's documents are joined by `---` lines, in the order generateRepo wrote them.
  const byFile = new Map<string, Array<{ object: BenchObject; deleted: boolean }>>();
  for (const [list, deleted] of [
    [toChange, false],
    [toDelete, true],
  ] as const) {
    for (const object of list) byFile.set(object.file!, [...(byFile.get(object.file!) ?? []), { object, deleted }]);
  }
  for (const [file, todo] of byFile) {
    const path = join(repo.manifestsDir, file);
    const docs: Array<string | undefined> = (await readFile(path, "utf8")).split(/^---\n/m);
    for (const { object, deleted } of todo) {
      const doc = docs[object.document!]!;
      const edited = deleted ? undefined : edits[object.kind as keyof typeof edits].edit(doc);
      if (edited === doc)
        throw new Error(`${file}#${object.document}: the head edit of ${keyOf(object)} changed nothing`);
      docs[object.document!] = edited;
    }
    const kept = docs.filter((d): d is string => d !== undefined);
    if (kept.length === 0) await rm(path);
    else await writeFile(path, kept.join("---\n"));
  }

  // New apps after the last one, until there are `count` new objects.
  const added: BenchObject[] = [];
  for (let app = repo.apps; added.length < count; app++) {
    const { manifestsDir, namespaces, target } = repo;
    added.push(...(await writeApp({ manifestsDir, namespaces, target, app, count: count - added.length })));
  }

  await git(repo.dir, ["add", "--all"]);
  await git(repo.dir, [
    "commit",
    "--quiet",
    "--message",
    `Change ${count} objects, add ${added.length}, delete ${toDelete.length}`,
  ]);
  return {
    changed: toChange.map((o) => ({ key: keyOf(o), how: edits[o.kind as keyof typeof edits].how })).sort(byKey),
    added: added.map(keyOf).sort(),
    deleted: toDelete.map(keyOf).sort(),
  };
}

// The order of Array.prototype.sort on the keys themselves, as the other lists use.
const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
