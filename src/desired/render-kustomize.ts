// The kustomize renderer: `kustomize build` of the target, with origin
// annotations switched on so each object can be traced to the file (and
// document) that declared it, then switched off again in the result.
import { access, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { isMap, isSeq, parseDocument } from "yaml";
import type { FluxRender } from "../config/target-origin.ts";
import type { DesiredObject, KubeObject } from "../model/types.ts";
import { checkKustomizations } from "./check-kustomizations.ts";
import { copyRepo } from "./copy-repo.ts";
import { extractObjects, type SkippedDocument } from "./extract-objects.ts";
import { findKustomization } from "./find-kustomization.ts";
import { generatedKustomization, withFluxMetadata, withFluxOverlay } from "./flux-overlay.ts";
import { parseManifests } from "./parse-manifests.ts";
import { type PostBuildVariables, substituteObjects } from "./post-build/substitute-objects.ts";
import { RenderError } from "./render-error.ts";
import { type DocumentIndexCache, originAnnotation, resolveOrigin } from "./resolve-origin.ts";
import { runTool, ToolRunError } from "./run-tool.ts";
import { toolPath } from "./tools.ts";

/**
 * kustomize-controller's StrictPostBuildSubstitutions feature gate, on by default since v1.9 (the v1.10 undrift's
 * test cluster installs included): a variable used without a default and defined nowhere fails the build.
 */
export const STRICT_SUBSTITUTIONS = true;

/** Largest `kustomize build` output undrift reads: a whole target, so more than one manifest file may hold. */
export const MAX_RENDERED_BYTES = 64 * 1024 * 1024;

/**
 * Builds the kustomization in `targetPath` (repo-relative); never with exec, alpha plugins or helm enabled. With
 * `flux`, as kustomize-controller builds a Kustomization's path: a folder without a kustomization gets one
 * generated, the object's overlays go on it, its `postBuild` variables (`variables`, read from the cluster) are
 * substituted into each built object, and the metadata the controller applies goes on every object.
 */
export async function renderKustomize({
  repoDir,
  targetPath,
  flux,
  variables,
}: {
  repoDir: string;
  targetPath: string;
  flux?: FluxRender | undefined;
  variables?: PostBuildVariables | undefined;
}): Promise<{
  objects: DesiredObject[];
  skipped: SkippedDocument[];
}> {
  const name = await findKustomization(join(repoDir, targetPath));
  const kustomizationFile = posix.join(targetPath, name ?? "kustomization.yaml");
  if (!name && !flux) {
    throw new RenderError(`${targetPath}: no kustomization.yaml in the target folder`, { file: targetPath });
  }
  if (name) await checkKustomizations({ repoDir, dir: targetPath });
  const postBuild = flux?.postBuild;
  // A caller without a cluster (validate) cannot have them: rendered without, every variable would read as drift.
  if (postBuild && !variables) {
    throw new RenderError(
      `Kustomization ${postBuild.kustomization}: spec.postBuild: its variables are read from the cluster, and were not`,
    );
  }

  const scratch = await realpath(await mkdtemp(join(tmpdir(), "undrift-kustomize-")));
  try {
    const copy = join(scratch, "repo");
    const home = join(scratch, "home");
    await Promise.all([copyRepo({ repoDir, dest: copy }), mkdir(home)]);
    const written = name
      ? await readFile(join(repoDir, kustomizationFile), "utf8")
      : await generatedKustomization(join(copy, targetPath));
    const text = flux
      ? await withFluxOverlay({
          text: written,
          flux,
          exists: (relative) => exists(join(copy, targetPath, relative)),
        })
      : written;
    const { text: withOrigins, userAsked } = addOriginAnnotations({ file: kustomizationFile, text });
    await writeFile(join(copy, kustomizationFile), withOrigins);

    const output = await runTool({
      file: toolPath("kustomize"),
      args: ["build", join(copy, targetPath)],
      // Nothing inherited: no PATH, so not even a stray remote reference can reach git.
      env: { HOME: home, XDG_CONFIG_HOME: home, GIT_TERMINAL_PROMPT: "0" },
      cwd: copy,
    }).catch((error: unknown) => {
      const message = error instanceof ToolRunError ? kustomizeMessage(error, scratch) : String(error);
      throw new RenderError(`${kustomizationFile}: kustomize build failed: ${message}`, {
        file: kustomizationFile,
        cause: error,
      });
    });

    const skipped: SkippedDocument[] = [];
    const objects: DesiredObject[] = [];
    const cache: DocumentIndexCache = new Map();
    const label = `${kustomizationFile} (kustomize output)`;
    const documents = parseManifests({ file: label, text: output, maxBytes: MAX_RENDERED_BYTES });
    const found = extractObjects({ documents, file: kustomizationFile, label, rendered: true });
    skipped.push(...found.skipped);
    const built: DesiredObject[] = [];
    for (const { object } of found.objects) {
      const source = await resolveOrigin({ repoDir, targetPath, kustomizationFile, object, cache });
      built.push({ object: withoutBuildAnnotations(object, userAsked), source });
    }
    objects.push(...afterBuild({ built, flux, variables }));
    return { objects, skipped };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** As the controller: the post-build variables substituted after the build, and its metadata set after that. */
function afterBuild(params: {
  built: DesiredObject[];
  flux: FluxRender | undefined;
  variables: PostBuildVariables | undefined;
}): DesiredObject[] {
  const { built, flux, variables } = params;
  const postBuild = flux?.postBuild;
  const substituted =
    postBuild && variables
      ? substituteObjects({
          objects: built.map((b) => b.object),
          variables,
          always: postBuild.always,
          strict: STRICT_SUBSTITUTIONS,
          where: `Kustomization ${postBuild.kustomization}`,
        })
      : built.map(({ object }) => ({ object, sensitive: [] as string[] }));
  return substituted.map(({ object, sensitive }, i) => ({
    object: flux ? withFluxMetadata(object, flux.metadata) : object,
    source: built[i]!.source,
    ...(sensitive.length > 0 ? { sensitive } : {}),
  }));
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The kustomization with `buildMetadata: [originAnnotations]` added, keeping its comments and other fields. */
function addOriginAnnotations({ file, text }: { file: string; text: string }): { text: string; userAsked: boolean } {
  parseManifests({ file, text }); // same errors, with file and line, as every other manifest
  const doc = parseDocument(text);
  if (doc.errors[0]) throw new RenderError(`${file}: a kustomization must be one YAML document`, { file });
  // An empty kustomization (only comments) is valid to kustomize; it gets just the one field.
  if (doc.contents === null) return { text: `${text}\nbuildMetadata: [originAnnotations]\n`, userAsked: false };
  if (!isMap(doc.contents)) throw new RenderError(`${file}:1: a kustomization must be a mapping`, { file, line: 1 });
  const buildMetadata = doc.get("buildMetadata");
  if (isSeq(buildMetadata)) {
    const userAsked = buildMetadata.items.some((item) => String(item) === "originAnnotations");
    if (!userAsked) buildMetadata.add(doc.createNode("originAnnotations"));
    return { text: doc.toString({ lineWidth: 0 }), userAsked };
  }
  doc.set("buildMetadata", doc.createNode(["originAnnotations"]));
  return { text: doc.toString({ lineWidth: 0 }), userAsked: false };
}

/** The object without the annotations undrift asked kustomize for, or that kustomize uses internally. */
function withoutBuildAnnotations(object: KubeObject, userAsked: boolean): KubeObject {
  const annotations = object.metadata.annotations;
  if (!annotations) return object;
  const kept = Object.fromEntries(
    Object.entries(annotations).filter(
      ([key]) =>
        !key.startsWith("internal.config.kubernetes.io/") &&
        !["config.kubernetes.io/index", "config.kubernetes.io/path"].includes(key) &&
        // A kustomization that asks for origins itself gets them applied (Flux does), so they stay desired.
        (key !== originAnnotation || userAsked),
    ),
  );
  const { annotations: _, ...metadata } = object.metadata;
  return { ...object, metadata: Object.keys(kept).length > 0 ? { ...metadata, annotations: kept } : metadata };
}

/**
 * kustomize's whole message on one line: its lines joined (a YAML error gives the line at fault on the next one),
 * usage text cut, scratch paths made repo-relative, its lstat noise and Go type prefixes cut.
 */
function kustomizeMessage(error: ToolRunError, scratch: string): string {
  if (error.timedOut) return error.message;
  const lines = error.stderr.split("\n").map((l) => l.trim());
  const usage = lines.findIndex((l) => l.startsWith("Usage:"));
  const kept = (usage === -1 ? lines : lines.slice(0, usage))
    .filter((l) => l !== "" && !/^Run '.*' for usage\.?$/.test(l))
    .map((l) =>
      l
        .replace(/^Error:\s*/, "")
        .replaceAll(`${join(scratch, "repo")}/`, "")
        .replaceAll(join(scratch, "repo"), ".")
        .replaceAll(scratch, ".")
        .replace(/evalsymlink failure on '[^']*' : /g, "")
        .replace(/': must build at directory: .*$/, "'")
        .replace(/^map\[string\]interface \{\}\(nil\): /, ""),
    );
  if (kept.length === 0) return error.message;
  return kept.reduce((all, l) => `${all}${/[:;,]$/.test(all) ? " " : "; "}${l}`);
}
