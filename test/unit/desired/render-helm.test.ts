import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RenderError } from "../../../src/desired/render-error.ts";
import { type RenderTarget, renderTarget } from "../../../src/desired/render-target.ts";
import type { DesiredObject } from "../../../src/model/types.ts";
import { tempRepo } from "./temp-repo.ts";

// Runs the real helm (toolPath: $UNDRIFT_HELM, the build cache, or PATH).
const fixture = resolve(import.meta.dirname, "../../fixtures/render/helm");
const web: RenderTarget = {
  name: "shop",
  path: "charts/web",
  render: "auto",
  namespace: "shop",
  helm: { valuesFiles: ["values-prod.yaml"] },
};

function summary(objects: DesiredObject[]) {
  return objects.map(
    ({ object, source }) => `${object.kind} ${object.metadata.name} <- ${source.file}#${source.document}`,
  );
}

describe("helm rendering", { timeout: 30_000 }, () => {
  it("traces each object to its template in the target folder, the chart's own name aside", async () => {
    const { objects, renderer } = await renderTarget({ repoDir: fixture, target: web });
    expect(renderer).toBe("helm");
    expect(summary(objects).sort()).toEqual(
      [
        "CustomResourceDefinition widgets.example.com <- charts/web/crds/widgets.yaml#0",
        "Deployment shop-web <- charts/web/templates/deployment.yaml#0",
        // helm prints it before the Deployment (install order); the index is still its place in the template
        "ServiceAccount shop-web <- charts/web/templates/deployment.yaml#1",
        "Service shop-web <- charts/web/templates/service.yaml#0",
        "ConfigMap shop-cache <- charts/web/charts/cache/templates/configmap.yaml#0",
      ].sort(),
    );
  });

  it("uses the release name, namespace and values files of the target", async () => {
    const { objects } = await renderTarget({
      repoDir: fixture,
      target: { ...web, helm: { releaseName: "storefront", valuesFiles: ["values-prod.yaml"] } },
    });
    const deployment = objects.find((o) => o.object.kind === "Deployment")!.object as unknown as {
      metadata: { name: string };
      spec: { replicas: number };
    };
    expect(deployment.metadata.name).toBe("storefront-web");
    expect(deployment.spec.replicas).toBe(3);
  });

  it("skips hooks, which helm runs and does not keep", async () => {
    const { skipped } = await renderTarget({ repoDir: fixture, target: web });
    expect(skipped).toEqual([
      {
        file: "charts/web/templates/migrate-job.yaml",
        document: 0,
        reason: "helm hook (pre-upgrade): run by helm, not kept in the cluster",
      },
    ]);
  });

  it("turns a template failure into helm's message with the template's repository path", async () => {
    const error = await renderTarget({
      repoDir: fixture,
      target: { name: "broken", path: "charts/broken", render: "helm" },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect((error as Error).message).toBe(
      "charts/broken/Chart.yaml: helm template failed: execution error at (charts/broken/templates/configmap.yaml:4:11): values: name is required",
    );
  });

  it("names a values file that does not exist", async () => {
    await expect(
      renderTarget({ repoDir: fixture, target: { ...web, helm: { valuesFiles: ["values-nope.yaml"] } } }),
    ).rejects.toThrow("charts/web/values-nope.yaml: values file does not exist");
  });

  it("refuses a values file outside the repository", async () => {
    await expect(
      renderTarget({
        repoDir: fixture,
        target: { ...web, helm: { valuesFiles: ["../../../plain/infra/values.yaml"] } },
      }),
    ).rejects.toThrow('charts/web: values file "../../../plain/infra/values.yaml" is outside the repository');
  });

  it("names the template whose output is not valid YAML", async () => {
    const repoDir = await tempRepo({
      "chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
      "chart/templates/cm.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    1: a\n    '1': b\n",
    });
    await expect(renderTarget({ repoDir, target: { name: "c", path: "chart", render: "auto" } })).rejects.toThrow(
      `chart/templates/cm.yaml: helm rendered invalid YAML (line 7 of the rendered document): keys 1 and '1' are both "1" in JSON, and kubectl keeps either at random`,
    );
  });
});
