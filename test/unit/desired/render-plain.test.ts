import { symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RenderError } from "../../../src/desired/render-error.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";
import { tempRepo } from "./temp-repo.ts";

const fixture = resolve(import.meta.dirname, "../../fixtures/render/plain");
const infra = { name: "infra", path: "infra", render: "auto" } as const;

function summary(objects: { object: { kind: string; metadata: { name: string } }; source: unknown }[]) {
  return objects.map(({ object, source }) => ({ kind: object.kind, name: object.metadata.name, source }));
}

describe("plain rendering", () => {
  it("reads every YAML and JSON file under the folder in a stable order, with file and document of each object", async () => {
    const result = await renderTarget({ repoDir: fixture, target: infra });
    expect(result.renderer).toBe("plain");
    expect(summary(result.objects)).toEqual([
      { kind: "ConfigMap", name: "web-config", source: { file: "infra/app.yaml", document: 0 } },
      // documents 1 and 2 are empty or only comments: skipped silently, but still counted
      { kind: "Deployment", name: "web", source: { file: "infra/app.yaml", document: 3 } },
      { kind: "ServiceAccount", name: "web", source: { file: "infra/list.yaml", document: 0 } },
      { kind: "Service", name: "web", source: { file: "infra/list.yaml", document: 0 } },
      { kind: "Namespace", name: "shop", source: { file: "infra/nested/namespace.json", document: 0 } },
    ]);
  });

  it("resolves YAML anchors and merge keys as kubectl does", async () => {
    const { objects } = await renderTarget({ repoDir: fixture, target: infra });
    const deployment = objects.find((o) => o.object.kind === "Deployment")!.object as unknown as {
      spec: { template: { metadata: { labels: object } } };
    };
    expect(deployment.spec.template.metadata.labels).toEqual({ app: "web", tier: "front" });
  });

  it("reports documents that are not Kubernetes objects as skipped, with why, and ignores hidden folders", async () => {
    const { skipped } = await renderTarget({ repoDir: fixture, target: infra });
    expect(skipped).toEqual([
      {
        file: "infra/nested/no-name.yml",
        document: 0,
        reason: "Job uses metadata.generateName: only objects with a fixed metadata.name can be tracked",
      },
      { file: "infra/values.yaml", document: 0, reason: "not a Kubernetes object: no string apiVersion and kind" },
    ]);
  });

  it("names the file and line of invalid YAML", async () => {
    const repoDir = await tempRepo({
      "infra/ok.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n",
      "infra/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  a: [1, 2\n  b: c\n",
    });
    const error = await renderTarget({ repoDir, target: infra }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as RenderError).message).toMatch(/^infra\/config\.yaml:7: /);
    expect((error as RenderError).message).not.toContain("\n");
    expect(error).toMatchObject({ file: "infra/config.yaml", line: 7 });
  });

  it("keeps the later of two equal keys, as kubectl applies it, and refuses keys that JSON would spell alike", async () => {
    const repoDir = await tempRepo({
      "infra/config.yaml": [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: app",
        "data:",
        "  LOG_LEVEL: info",
        "  LOG_LEVEL: debug",
        "",
      ].join("\n"),
    });
    const result = await renderTarget({ repoDir, target: infra });
    expect(result.objects.map((o) => o.object.data)).toEqual([{ LOG_LEVEL: "debug" }]);

    const ambiguous = await tempRepo({
      "infra/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  labels:\n    1: a\n    '1': b\n",
    });
    await expect(renderTarget({ repoDir: ambiguous, target: infra })).rejects.toThrow(
      `infra/config.yaml:7: keys 1 and '1' are both "1" in JSON, and kubectl keeps either at random`,
    );
  });

  it("reads a linked file inside the repository but not one that leads outside it", async () => {
    const repoDir = await tempRepo({
      "shared/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n",
      "infra/.keep": "",
    });
    await symlink("../shared/cm.yaml", join(repoDir, "infra/shared.yaml"));
    await symlink("/etc/hostname", join(repoDir, "infra/host.yaml"));
    const result = await renderTarget({ repoDir, target: infra });
    expect(summary(result.objects)).toEqual([
      { kind: "ConfigMap", name: "shared", source: { file: "infra/shared.yaml", document: 0 } },
    ]);
    expect(result.skipped).toEqual([
      {
        file: "infra/host.yaml",
        document: 0,
        reason: "symbolic link that does not lead to a file inside the repository",
      },
    ]);
  });
});

describe("a manifest link that points back to itself", () => {
  it("is skipped with that reason, not as a link that leads outside", async () => {
    const repoDir = await tempRepo({ "infra/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n" });
    await symlink("loop.yaml", join(repoDir, "infra/loop.yaml"));
    const result = await renderTarget({ repoDir, target: infra });
    expect(result.skipped).toEqual([
      { file: "infra/loop.yaml", document: 0, reason: "symbolic link that points back to itself (ELOOP)" },
    ]);
  });
});

describe("choosing the renderer", () => {
  it("renders the plain folder when asked for plain even next to other folders", async () => {
    const result = await renderTarget({ repoDir: fixture, target: { ...infra, render: "plain" } });
    expect(result.objects.every((o) => o.source.file.startsWith("infra/"))).toBe(true);
  });

  it("picks kustomize for a folder with a kustomization and helm for a chart", async () => {
    const repoDir = await tempRepo({
      "k/Kustomization": "resources: [cm.yaml]\n",
      "k/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k\n",
      "h/Chart.yaml": "apiVersion: v2\nname: h\nversion: 0.1.0\n",
      "h/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: h\n",
    });
    const k = await renderTarget({ repoDir, target: { name: "k", path: "k", render: "auto" } });
    const h = await renderTarget({ repoDir, target: { name: "h", path: "h/", render: "auto" } });
    expect([k.renderer, k.objects[0]?.source]).toEqual(["kustomize", { file: "k/cm.yaml", document: 0 }]);
    expect([h.renderer, h.objects[0]?.source]).toEqual(["helm", { file: "h/templates/cm.yaml", document: 0 }]);
  }, 30_000);

  it("says so when the target asks for kustomize or helm and the folder has neither", async () => {
    await expect(renderTarget({ repoDir: fixture, target: { ...infra, render: "kustomize" } })).rejects.toThrow(
      "infra: no kustomization.yaml in the target folder",
    );
    await expect(renderTarget({ repoDir: fixture, target: { ...infra, render: "helm" } })).rejects.toThrow(
      "infra: no Chart.yaml in the target folder",
    );
  });

  it("says clearly when the target folder does not exist", async () => {
    await expect(renderTarget({ repoDir: fixture, target: { ...infra, path: "nope" } })).rejects.toThrow(
      'nope: target "infra": the folder does not exist in the repository',
    );
  });

  it("refuses a target path outside the repository", async () => {
    await expect(renderTarget({ repoDir: fixture, target: { ...infra, path: "../kustomize" } })).rejects.toThrow(
      'target "infra": path "../kustomize" is outside the repository',
    );
  });
});
