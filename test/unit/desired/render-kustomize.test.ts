import { chmod, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RenderError } from "../../../src/desired/render-error.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";
import type { DesiredObject } from "../../../src/model/types.ts";
import { tempRepo } from "./temp-repo.ts";

// Runs the real kustomize (toolPath: $UNDRIFT_KUSTOMIZE, the build cache, or PATH).
const fixture = resolve(import.meta.dirname, "../../fixtures/render/kustomize");
const target = (path: string) => ({ name: "apps", path, render: "auto" as const });

function find(objects: DesiredObject[], kind: string, name: string | RegExp) {
  const found = objects.find((o) => o.object.kind === kind && o.object.metadata.name.match(name));
  if (!found) throw new Error(`no ${kind} ${name} in ${objects.map((o) => o.object.metadata.name).join(", ")}`);
  return found;
}

describe("kustomize rendering", { timeout: 30_000 }, () => {
  it("traces objects of a base to the base's files, even after namePrefix renamed them", async () => {
    const { objects, renderer } = await renderTarget({ repoDir: fixture, target: target("apps/overlays/prod") });
    expect(renderer).toBe("kustomize");
    expect(find(objects, "Deployment", "prod-web").source).toEqual({ file: "apps/base/deployment.yaml", document: 0 });
    expect(find(objects, "ServiceAccount", "prod-web").source).toEqual({ file: "apps/base/service.yaml", document: 0 });
    expect(find(objects, "Service", "prod-web").source).toEqual({ file: "apps/base/service.yaml", document: 1 });
    expect(find(objects, "PodDisruptionBudget", "prod-web").source).toEqual({
      file: "apps/overlays/prod/extra.yaml",
      document: 0,
    });
  });

  it("traces generated ConfigMaps to the kustomization that configured them", async () => {
    const { objects } = await renderTarget({ repoDir: fixture, target: target("apps/overlays/prod") });
    expect(find(objects, "ConfigMap", /^prod-app-config-/).source).toEqual({
      file: "apps/overlays/prod/kustomization.yaml",
      document: 0,
    });
    expect(find(objects, "ConfigMap", /^prod-base-settings-/).source).toEqual({
      file: "apps/base/kustomization.yaml",
      document: 0,
    });
  });

  it("applies the overlay's patch, images and namespace", async () => {
    const { objects } = await renderTarget({ repoDir: fixture, target: target("apps/overlays/prod") });
    const deployment = find(objects, "Deployment", "prod-web").object as unknown as {
      metadata: { namespace: string };
      spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
    };
    expect(deployment.metadata.namespace).toBe("shop");
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0]?.image).toBe("nginx:1.27");
  });

  it("removes the origin annotations it asked for, and keeps the object's own annotations", async () => {
    const { objects } = await renderTarget({ repoDir: fixture, target: target("apps/overlays/prod") });
    for (const { object } of objects) {
      expect(Object.keys(object.metadata.annotations ?? {}).filter((k) => k.includes("config.kubernetes.io"))).toEqual(
        [],
      );
    }
    expect(find(objects, "Deployment", "prod-web").object.metadata).not.toHaveProperty("annotations");
    expect(find(objects, "Service", "prod-web").object.metadata.annotations).toEqual({ team: "shop" });
  });

  it("keeps the kustomization's own buildMetadata and leaves the repository untouched", async () => {
    const file = resolve(fixture, "apps/overlays/staging/kustomization.yaml");
    const before = await readFile(file, "utf8");
    const { objects } = await renderTarget({ repoDir: fixture, target: target("apps/overlays/staging") });
    const deployment = find(objects, "Deployment", "web-staging");
    expect(deployment.source).toEqual({ file: "apps/base/deployment.yaml", document: 0 });
    expect(deployment.object.metadata.labels).toHaveProperty("app.kubernetes.io/managed-by");
    expect(deployment.object.metadata).not.toHaveProperty("annotations");
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("keeps origin annotations a kustomization asks for itself, since its deployer applies them", async () => {
    const repoDir = await tempRepo({
      "app/kustomization.yaml": "resources: [cm.yaml]\nbuildMetadata: [originAnnotations]\n",
      "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    });
    const { objects } = await renderTarget({ repoDir, target: target("app") });
    expect(objects[0]?.object.metadata.annotations).toEqual({ "config.kubernetes.io/origin": "path: cm.yaml\n" });
  });

  it("refuses a remote base reached through a local one, naming the kustomization that declares it", async () => {
    const error = await renderTarget({ repoDir: fixture, target: target("apps/overlays/remote-via-base") }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(
      'apps/remote-base/kustomization.yaml: remote resources entry "github.com/example/manifests//deploy?ref=v1.0.0" refused: undrift renders only what the repository holds; vendor it into the repository',
    );
  });

  it.each([
    "https://raw.githubusercontent.com/example/manifests/main/deploy.yaml",
    "git@github.com:example/manifests.git/deploy",
    "github.com/example/manifests/deploy",
    "example.com/manifests//deploy",
    "../local?ref=main",
  ])("refuses the remote form %s", async (entry) => {
    const repoDir = await tempRepo({ "app/kustomization.yaml": `components:\n  - ${entry}\n` });
    await expect(renderTarget({ repoDir, target: target("app") })).rejects.toThrow(
      `app/kustomization.yaml: remote components entry "${entry}" refused`,
    );
  });

  it("refuses helmCharts, which would need --enable-helm and a download", async () => {
    const repoDir = await tempRepo({
      "app/kustomization.yaml": "helmCharts:\n  - name: redis\n    repo: https://charts.example.com\n",
    });
    await expect(renderTarget({ repoDir, target: target("app") })).rejects.toThrow(
      "app/kustomization.yaml: helmCharts needs kustomize --enable-helm",
    );
  });

  it("refuses a base outside the repository", async () => {
    await expect(renderTarget({ repoDir: fixture, target: target("apps/overlays/outside") })).rejects.toThrow(
      'apps/overlays/outside/kustomization.yaml: resources entry "../../../../elsewhere" points outside the repository',
    );
  });

  it("turns a kustomize failure into kustomize's own message with repository paths", async () => {
    const error = await renderTarget({ repoDir: fixture, target: target("apps/overlays/broken") }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RenderError);
    const message = (error as Error).message;
    expect(message).toMatch(/^apps\/overlays\/broken\/kustomization\.yaml: kustomize build failed: /);
    expect(message).toContain("'missing.yaml'");
    expect(message).toContain("apps/overlays/broken/missing.yaml: no such file or directory");
    expect(message).not.toContain("undrift-kustomize-");
    expect(message).not.toContain("\n");
  });

  it.each([
    [
      "a resource file outside the kustomization's folder",
      {
        "shared/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n",
        "app/kustomization.yaml": "resources:\n  - ../shared/cm.yaml\n",
      },
      "app/kustomization.yaml: kustomize build failed: accumulating resources: accumulation err='accumulating resources from '../shared/cm.yaml': security; file 'shared/cm.yaml' is not in or below 'app''",
    ],
    [
      "a generator file outside it",
      {
        "shared/a.txt": "x",
        "app/kustomization.yaml": "configMapGenerator:\n  - name: x\n    files: [../shared/a.txt]\n",
      },
      "app/kustomization.yaml: kustomize build failed: loading KV pairs: file sources: [../shared/a.txt]: security; file 'shared/a.txt' is not in or below 'app'",
    ],
    [
      "a YAML error kustomize reports over two lines",
      {
        "app/kustomization.yaml": "resources: [cm.yaml]\n",
        "app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
      },
      'app/kustomization.yaml: kustomize build failed: yaml: unmarshal errors: line 5: mapping key "name" already defined at line 4',
    ],
  ])("keeps kustomize's whole cause on one line: %s", async (_, files, message) => {
    const repoDir = await tempRepo(files);
    const error = await renderTarget({ repoDir, target: target("app") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(message);
  });

  it("cuts the usage text a kustomize prints after its error", async () => {
    const bin = await tempRepo({
      kustomize:
        "#!/bin/sh\nprintf 'Error: accumulating resources:\\n  the cause\\nUsage:\\n  kustomize build DIR [flags]\\n\\nFlags:\\n  -h, --help\\n' >&2\nexit 1\n",
    });
    await chmod(join(bin, "kustomize"), 0o755);
    const repoDir = await tempRepo({ "app/kustomization.yaml": "resources: []\n" });
    const before = process.env.UNDRIFT_KUSTOMIZE;
    process.env.UNDRIFT_KUSTOMIZE = join(bin, "kustomize");
    try {
      await expect(renderTarget({ repoDir, target: target("app") })).rejects.toThrow(
        /^app\/kustomization\.yaml: kustomize build failed: accumulating resources: the cause$/,
      );
    } finally {
      if (before === undefined) delete process.env.UNDRIFT_KUSTOMIZE;
      else process.env.UNDRIFT_KUSTOMIZE = before;
    }
  });

  it("names the line of an invalid kustomization", async () => {
    const repoDir = await tempRepo({ "app/kustomization.yaml": "resources:\n  - a.yaml\n  b: c\n" });
    await expect(renderTarget({ repoDir, target: target("app") })).rejects.toThrow(/^app\/kustomization\.yaml:3: /);
  });
});
