// The helm renderer: `helm template` of the chart in the target folder, offline
// (helm's homes point at an empty scratch folder), each output document traced
// to its template through the `# Source:` comment helm writes above it. The
// chart is rendered from a scratch copy of the repository, as kustomize is.
import { access, mkdir, mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, posix } from "node:path";
import type { DesiredObject } from "../model/types.ts";
import { copyRepo } from "./copy-repo.ts";
import { extractObjects, type SkippedDocument } from "./extract-objects.ts";
import { helmDocumentIndex } from "./helm-document-index.ts";
import { parseManifests } from "./parse-manifests.ts";
import { RenderError } from "./render-error.ts";
import { repoPath } from "./repo-path.ts";
import { runTool, ToolRunError } from "./run-tool.ts";
import { splitHelmOutput } from "./split-helm-output.ts";
import { toolPath } from "./tools.ts";

/** Renders the chart in `targetPath` (repo-relative) as release `releaseName` into `namespace`, CRDs included. */
export async function renderHelm({
  repoDir,
  targetPath,
  releaseName,
  namespace,
  valuesFiles = [],
}: {
  repoDir: string;
  targetPath: string;
  releaseName: string;
  namespace?: string;
  valuesFiles?: string[];
}): Promise<{ objects: DesiredObject[]; skipped: SkippedDocument[] }> {
  const scratch = await realpath(await mkdtemp(join(tmpdir(), "undrift-helm-")));
  try {
    // Helm follows every link in a chart (.Files.Get, .Files.Glob, templates, values): it renders a copy
    // without the links that leave the repository, so /etc/passwd cannot become part of a chart.
    const copy = join(scratch, "repo");
    await Promise.all([copyRepo({ repoDir, dest: copy }), mkdir(join(scratch, "home"))]);
    return await renderCopy({ copy, home: join(scratch, "home"), targetPath, releaseName, namespace, valuesFiles });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function renderCopy(params: {
  copy: string;
  home: string;
  targetPath: string;
  releaseName: string;
  namespace: string | undefined;
  valuesFiles: string[];
}): Promise<{ objects: DesiredObject[]; skipped: SkippedDocument[] }> {
  const { copy: repoDir, home, targetPath, releaseName, namespace, valuesFiles } = params;
  const chartFile = posix.join(targetPath, "Chart.yaml");
  const chartText = await readFile(join(repoDir, chartFile), "utf8").catch((cause: unknown) => {
    throw new RenderError(`${targetPath}: no Chart.yaml in the target folder`, { file: targetPath, cause });
  });
  const chartName = (parseManifests({ file: chartFile, text: chartText })[0]?.value as { name?: unknown } | null)?.name;
  if (typeof chartName !== "string") throw new RenderError(`${chartFile}: the chart has no name`, { file: chartFile });
  const args = ["template", releaseName, join(repoDir, targetPath), "--include-crds"];
  if (namespace) args.push("--namespace", namespace);
  for (const values of valuesFiles) args.push("-f", await valuesPath({ repoDir, targetPath, values }));

  let output: string;
  try {
    output = await runTool({
      file: toolPath("helm"),
      args,
      // Empty homes: no repositories, registries, plugins or kubeconfig of whoever runs undrift.
      env: {
        HOME: home,
        HELM_CACHE_HOME: join(home, "cache"),
        HELM_CONFIG_HOME: join(home, "config"),
        HELM_DATA_HOME: join(home, "data"),
        KUBECONFIG: join(home, "kubeconfig"),
      },
      cwd: home,
    });
  } catch (error) {
    const message = error instanceof ToolRunError ? helmMessage({ error, repoDir, targetPath, chartName }) : `${error}`;
    throw new RenderError(`${chartFile}: helm template failed: ${message}`, { file: chartFile, cause: error });
  }

  const objects: DesiredObject[] = [];
  const skipped: SkippedDocument[] = [];
  const documentOf = helmDocumentIndex(repoDir);
  for (const { file, text } of await splitHelmOutput({ output, repoDir, targetPath, chartFile })) {
    for (const parsed of parseRendered({ file, text })) {
      const { value } = parsed;
      if (value === null) continue;
      const document = await documentOf(file, (value as { kind?: unknown }).kind);
      const hook = (value as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations?.[
        "helm.sh/hook"
      ];
      if (hook !== undefined) {
        // Helm runs hooks around an install and often deletes them after: they are not state to keep.
        skipped.push({ file, document, reason: `helm hook (${String(hook)}): run by helm, not kept in the cluster` });
        continue;
      }
      // Lines count in the rendered document, as helm's own YAML errors do.
      const found = extractObjects({
        documents: [parsed],
        file,
        label: `${file} (rendered)`,
        rendered: true,
        documentIndex: () => document,
      });
      objects.push(...found.objects);
      skipped.push(...found.skipped);
    }
  }
  return { objects, skipped };
}

function parseRendered({ file, text }: { file: string; text: string }) {
  try {
    return parseManifests({ file, text });
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const reason = error.message.replace(/^[^:]*:\d+: /, "");
    throw new RenderError(
      `${file}: helm rendered invalid YAML (line ${error.line} of the rendered document): ${reason}`,
      {
        file,
        cause: error,
      },
    );
  }
}

async function valuesPath({ repoDir, targetPath, values }: { repoDir: string; targetPath: string; values: string }) {
  const rel = isAbsolute(values) ? undefined : repoPath({ repoDir, abs: join(repoDir, targetPath, values) });
  if (rel === undefined) throw new RenderError(`${targetPath}: values file "${values}" is outside the repository`);
  // The copy dropped a values file linked out of the repository, so it reads as missing here.
  if (!(await exists(join(repoDir, rel)))) {
    throw new RenderError(`${rel}: values file does not exist`, { file: rel });
  }
  return join(repoDir, rel);
}

/** Helm's first error line, with chart-name paths (`webapp/templates/x.yaml:4`) and absolute paths made repo-relative. */
function helmMessage(params: { error: ToolRunError; repoDir: string; targetPath: string; chartName: string }): string {
  const { error, repoDir, targetPath, chartName } = params;
  if (error.timedOut) return error.message;
  const line = error.stderr.split("\n").find((l) => l.trim() !== "") ?? error.message;
  const escaped = chartName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return line
    .replace(/^Error:\s*/, "")
    .replaceAll(`${repoDir}/`, "")
    .replace(new RegExp(`(^|[\\s(])${escaped}/`, "g"), `$1${targetPath}/`);
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
