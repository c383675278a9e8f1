// The CRDs of the reconcilers undrift reads targets from (Flux's
// Kustomization and its sources, Argo CD's Application, ApplicationSet and
// AppProject), exactly as their projects ship them: taken from each project's
// Go module on the module proxy (its config/crd or manifests/crds folder), so
// a test creates the objects Flux and Argo CD would, validated by their own
// schemas. Those modules' go.mod lines name Go 1.27, so the download runs
// under the toolchain the proxy serves for it (../shared/notes/flux-controllers.md).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { ClusterObject } from "./api.ts";
import { versions } from "./versions.ts";

/** The Go toolchain the reconcilers' modules need (their go.mod says go 1.27.0; the machine's Go is 1.26). */
export const RECONCILER_GOTOOLCHAIN = "go1.27.3";

/** Each module and the CRD files in it, relative to its root. */
const sources = [
  {
    module: `github.com/fluxcd/kustomize-controller@${versions.fluxKustomizeController}`,
    files: ["config/crd/bases/kustomize.toolkit.fluxcd.io_kustomizations.yaml"],
  },
  {
    module: `github.com/fluxcd/source-controller@${versions.fluxSourceController}`,
    files: [
      "config/crd/bases/source.toolkit.fluxcd.io_gitrepositories.yaml",
      "config/crd/bases/source.toolkit.fluxcd.io_helmrepositories.yaml",
      "config/crd/bases/source.toolkit.fluxcd.io_ocirepositories.yaml",
      "config/crd/bases/source.toolkit.fluxcd.io_helmcharts.yaml",
    ],
  },
  {
    module: `github.com/argoproj/argo-cd/v3@${versions.argoCd}`,
    files: [
      "manifests/crds/application-crd.yaml",
      "manifests/crds/applicationset-crd.yaml",
      "manifests/crds/appproject-crd.yaml",
    ],
  },
];

/** The folder `go mod download` unpacked `module` into (downloading it on first use). */
export function moduleDir(module: string): string {
  const goBin = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
  const result = spawnSync(goBin, ["mod", "download", "-json", module], {
    encoding: "utf8",
    env: { ...process.env, GOTOOLCHAIN: RECONCILER_GOTOOLCHAIN, GOFLAGS: "-mod=mod" },
    maxBuffer: 16 * 1024 * 1024,
  });
  const answer = (() => {
    try {
      return JSON.parse(result.stdout) as { Dir?: string; Error?: string };
    } catch {
      return {};
    }
  })();
  if (result.status !== 0 || !answer.Dir) {
    throw new Error(`go mod download ${module}: ${answer.Error ?? result.stderr.trim() ?? `exit ${result.status}`}`);
  }
  return answer.Dir;
}

/** Every reconciler CRD, ready to apply. */
export function reconcilerCrds(): ClusterObject[] {
  return sources.flatMap(({ module, files }) => {
    const dir = moduleDir(module);
    return files.flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), "utf8"))
        .map((document) => document.toJS() as ClusterObject | null)
        .filter((object): object is ClusterObject => object?.kind === "CustomResourceDefinition"),
    );
  });
}
