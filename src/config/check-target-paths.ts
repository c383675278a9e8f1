// A working tree's config is checked against the tree itself: a target's path
// (or a helm values file) that a symbolic link carries outside the repository,
// that is a file and not a folder, or that a link loops on itself, is a config error on the line that names
// it, raised before anything under that path is read or written.
import { stat } from "node:fs/promises";
import { posix } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { ConfigError, type ConfigIssue } from "./config-error.ts";
import { outsideRepo } from "./outside-repo.ts";
import type { RepoConfig } from "./schema.ts";
import { symlinkLoop } from "./symlink-loop.ts";
import { formatPath } from "./validate-config.ts";
import { yamlLine } from "./yaml-line.ts";

/** Throws ConfigError `<file>:<line>: targets[i].path: <why>` for the first target path that cannot be used. */
export async function checkTargetPaths(params: {
  root: string;
  config: RepoConfig;
  text: string;
  file: string;
}): Promise<void> {
  const { root, config, text, file } = params;
  const found: Array<{ path: PropertyKey[]; message: string }> = [];
  for (const [index, target] of config.targets.entries()) {
    const problem = await outsideRepo({ root, path: target.path });
    if (problem) {
      found.push({ path: ["targets", index, "path"], message: problem });
      continue;
    }
    const loop = await symlinkLoop({ root, path: target.path });
    if (loop) {
      found.push({ path: ["targets", index, "path"], message: loop });
      continue;
    }
    const info = await stat(posix.join(root, target.path)).catch(() => undefined);
    // A missing folder is the renderer's to report, per target: other targets still scan.
    if (info && !info.isDirectory()) {
      found.push({
        path: ["targets", index, "path"],
        message: `${target.path} is a file; a target's path is a folder`,
      });
      continue;
    }
    for (const [i, values] of target.helm.valuesFiles.entries()) {
      const why = await outsideRepo({ root, path: posix.join(target.path, values) });
      if (why) found.push({ path: ["targets", index, "helm", "valuesFiles", i], message: why });
    }
  }
  if (found.length === 0) return;
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, merge: true });
  const issues: ConfigIssue[] = found.map(({ path, message }) => ({
    line: yamlLine(doc, counter, path),
    path: formatPath(path),
    message,
  }));
  throw ConfigError.fromIssues(file, issues);
}
