// Which targets a pull request changes, decided by rendering base and head (the
// real kustomize binary): what a reviewer gets a preview for, and what is only
// listed as unchanged.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadConfig } from "../../../../src/config/load-config.ts";
import { RenderCache } from "../../../../src/desired/render-cache.ts";
import type { RenderTarget } from "../../../../src/desired/render-target.ts";
import { changedTargets } from "../../../../src/stages/preview/changed-targets.ts";
import { tempRepo } from "../../desired/temp-repo.ts";

const config = (targets: Array<Record<string, unknown>>) =>
  stringify({ targets: targets.map((t) => ({ cluster: "test", ...t })) });

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`;

const repo = (overrides: Record<string, string> = {}, targets?: Array<Record<string, unknown>>) =>
  tempRepo({
    ".github/undrift.yml": config(
      targets ?? [
        { name: "prod", path: "clusters/prod", namespace: "prod" },
        { name: "shop", path: "apps/shop", namespace: "shop" },
      ],
    ),
    "bases/web/kustomization.yaml": "resources: [deployment.yaml]\n",
    "bases/web/deployment.yaml": deployment(2),
    "clusters/prod/kustomization.yaml": "resources: [../../bases/web]\n",
    "apps/shop/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shop}\ndata: {a: b}\n",
    ...overrides,
  });

async function changed(base: string, head: string) {
  const read = async (dir: string) => loadConfig(await readFile(`${dir}/.github/undrift.yml`, "utf8"));
  const headConfig = await read(head);
  const result = await changedTargets({
    baseDir: base,
    headDir: head,
    baseConfig: await read(base),
    targets: headConfig.targets,
  });
  const names = (targets: Array<{ name: string }>) => targets.map((t) => t.name);
  return { changed: names(result.changed), unchanged: names(result.unchanged) };
}

describe("changedTargets", { timeout: 30_000 }, () => {
  it("counts a change in a kustomize base outside the target's folder", async () => {
    const result = await changed(await repo(), await repo({ "bases/web/deployment.yaml": deployment(3) }));
    expect(result).toEqual({ changed: ["prod"], unchanged: ["shop"] });
  });

  it("keeps the renders of changed targets for their previews, and lets go of the others", async () => {
    class Recording extends RenderCache {
      forgotten: string[] = [];
      override forget(repoDir: string, target: RenderTarget): void {
        this.forgotten.push(target.name);
        super.forget(repoDir, target);
      }
    }
    const renders = new Recording();
    const base = await repo();
    const head = await repo({ "bases/web/deployment.yaml": deployment(3) });
    const configOf = async (dir: string) => loadConfig(await readFile(`${dir}/.github/undrift.yml`, "utf8"));
    const headConfig = await configOf(head);
    const result = await changedTargets({
      baseDir: base,
      headDir: head,
      baseConfig: await configOf(base),
      targets: headConfig.targets,
      renders,
    });
    expect(result.changed.map((t) => t.name)).toEqual(["prod"]);
    expect(renders.forgotten).toEqual(["shop", "shop"]);
  });

  it("does not count a comment, key order or a file that renders to the same objects", async () => {
    const head = await repo({
      "apps/shop/config.yaml":
        "# the shop's settings\napiVersion: v1\nmetadata: {name: shop}\nkind: ConfigMap\ndata: {a: b}\n",
      "apps/shop/README.md": "notes\n",
    });
    expect(await changed(await repo(), head)).toEqual({ changed: [], unchanged: ["prod", "shop"] });
  });

  it("counts a target whose settings changed, a target new in head, and a head that no longer renders", async () => {
    const targets = [
      { name: "prod", path: "clusters/prod", namespace: "prod-2" },
      { name: "shop", path: "apps/shop", namespace: "shop" },
      { name: "extra", path: "apps/shop", namespace: "extra" },
    ];
    const head = await repo({ "clusters/prod/kustomization.yaml": "resources: [../../bases/web]\n" }, targets);
    expect(await changed(await repo(), head)).toEqual({ changed: ["prod", "extra"], unchanged: ["shop"] });

    const broken = await repo({ "apps/shop/config.yaml": "kind: [unclosed\n" });
    expect(await changed(await repo(), broken)).toEqual({ changed: ["shop"], unchanged: ["prod"] });
  });
});
