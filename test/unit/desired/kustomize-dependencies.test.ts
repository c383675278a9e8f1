import { describe, expect, it } from "vitest";
import { dependsOn, kustomizeDependencies } from "../../../src/desired/kustomize-dependencies.ts";

/** Walks to the end, handing over each kustomization it asks for, as the app does with GitHub. */
function walk(root: string, repo: Record<string, string>) {
  const paths = new Set(Object.keys(repo));
  const kustomizations = new Map<string, string>();
  const asked: string[][] = [];
  for (;;) {
    const deps = kustomizeDependencies({ root, paths, kustomizations });
    if (deps.unread.length === 0) return { ...deps, asked };
    asked.push(deps.unread);
    for (const file of deps.unread) kustomizations.set(file, repo[file] ?? "");
  }
}

const repo = {
  "bases/web/kustomization.yaml": "resources: [deployment.yaml, ../../components/probes]\n",
  "bases/web/deployment.yaml": "kind: Deployment\n",
  "components/probes/kustomization.yaml": "kind: Component\npatches: [{path: probes.yaml}]\n",
  "components/probes/probes.yaml": "kind: Deployment\n",
  "shared/env/prod.env": "LEVEL=info\n",
  "shared/patches/replicas.yaml": "kind: Deployment\n",
  "clusters/prod/kustomization.yaml": [
    "resources:",
    "  - ../../bases/web",
    "  - https://github.com/acme/remote//base?ref=v1",
    "  - github.com/acme/other/base?ref=v2",
    "  - ../../../outside",
    "  - extra.yaml",
    "patches:",
    "  - path: ../../shared/patches/replicas.yaml",
    "  - patch: |-",
    "      - op: replace",
    "        path: /spec/replicas",
    "configMapGenerator:",
    "  - name: web",
    "    envs: [../../shared/env/prod.env]",
    "    files: [settings=../../shared/settings.json]",
    "",
  ].join("\n"),
  "clusters/prod/extra.yaml": "kind: ConfigMap\n",
  "clusters/staging/kustomization.yaml": "resources: [config.yaml]\n",
  "clusters/staging/config.yaml": "kind: ConfigMap\n",
  "shared/settings.json": "{}\n",
  "plain/config.yaml": "kind: ConfigMap\n",
};

describe("what a kustomize target renders from", () => {
  it("follows bases and components out of the target's folder, and names the files its kustomizations use", () => {
    const deps = walk("clusters/prod", repo);
    expect(deps.folders).toEqual(["clusters/prod", "bases/web", "components/probes"]);
    expect(deps.files).toEqual(["shared/env/prod.env", "shared/patches/replicas.yaml", "shared/settings.json"]);
    // One kustomization at a time, as the walk reaches it.
    expect(deps.asked).toEqual([
      ["clusters/prod/kustomization.yaml"],
      ["bases/web/kustomization.yaml"],
      ["components/probes/kustomization.yaml"],
    ]);
    expect(dependsOn(deps, "bases/web/deployment.yaml")).toBe(true);
    expect(dependsOn(deps, "components/probes/probes.yaml")).toBe(true);
    expect(dependsOn(deps, "shared/env/prod.env")).toBe(true);
    expect(dependsOn(deps, "shared/env/staging.env")).toBe(false);
    expect(dependsOn(deps, "clusters/staging/config.yaml")).toBe(false);
  });

  it("ignores remote bases and paths outside the repository", () => {
    const deps = walk("clusters/prod", repo);
    expect([...deps.folders, ...deps.files].some((p) => p.includes("github.com") || p.includes("outside"))).toBe(false);
  });

  it("has nothing to say about a folder without a kustomization", () => {
    expect(walk("plain", repo)).toMatchObject({ folders: [], files: [], asked: [] });
  });

  it("stops at a base that includes the overlay back, and at a kustomization that is not YAML", () => {
    const deps = walk("a", {
      "a/kustomization.yaml": "resources: [../b, ../broken]\n",
      "b/kustomization.yaml": "resources: [../a]\n",
      "broken/kustomization.yml": "resources: [../c\n  - : [\n",
      "c/x.yaml": "kind: ConfigMap\n",
    });
    expect(deps.folders).toEqual(["a", "b", "broken"]);
  });

  it("takes the whole repository as the folder of a target at its root", () => {
    const deps = walk(".", { "kustomization.yaml": "resources: [apps]\n", "apps/x.yaml": "kind: ConfigMap\n" });
    expect(deps.folders).toEqual(["."]);
    expect(dependsOn(deps, "anything/at/all")).toBe(true);
  });
});
