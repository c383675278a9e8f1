// A Flux Kustomization's path rendered as kustomize-controller renders it, with the real kustomize: the folder's
// kustomization (or one generated for a folder without), the object's overlays on it, its metadata on each object.
import { describe, expect, it } from "vitest";
import type { FluxRender } from "../../../src/config/target-origin.ts";
import { withFluxOverlay } from "../../../src/desired/flux-overlay.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";
import type { DesiredObject } from "../../../src/model/types.ts";
import { tempRepo } from "./temp-repo.ts";

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.25
`;
const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: info
`;

const ownLabels = {
  "kustomize.toolkit.fluxcd.io/name": "apps",
  "kustomize.toolkit.fluxcd.io/namespace": "flux-system",
};
const flux = (fields: Partial<FluxRender> = {}): FluxRender => ({
  patches: [],
  images: [],
  components: [],
  ignoreMissingComponents: false,
  metadata: { labels: ownLabels, annotations: {} },
  ...fields,
});
const render = (repoDir: string, path: string, fields?: Partial<FluxRender>) =>
  renderTarget({ repoDir, target: { name: "ks-flux-system-apps", path, render: "auto", flux: flux(fields) } });
const byKind = (objects: DesiredObject[], kind: string) => objects.find((o) => o.object.kind === kind)!;

describe("a Flux Kustomization's render", { timeout: 30_000 }, () => {
  it("generates a kustomization for a plain folder, sub-folders included, and traces each object to its file", async () => {
    const repoDir = await tempRepo({
      "apps/web/deployment.yaml": deployment,
      "apps/settings.yaml": configMap,
      "apps/README.md": "not a manifest",
    });
    const { objects, renderer } = await render(repoDir, "apps");
    expect(renderer).toBe("kustomize");
    expect(objects.map((o) => `${o.object.kind}/${o.object.metadata.name}`).sort()).toEqual([
      "ConfigMap/settings",
      "Deployment/web",
    ]);
    expect(byKind(objects, "Deployment").source).toEqual({ file: "apps/web/deployment.yaml", document: 0 });
    expect(byKind(objects, "ConfigMap").source).toEqual({ file: "apps/settings.yaml", document: 0 });
  });

  it("puts targetNamespace, namePrefix, nameSuffix, images and patches on the build", async () => {
    const repoDir = await tempRepo({ "apps/deployment.yaml": deployment, "apps/settings.yaml": configMap });
    const { objects } = await render(repoDir, "apps", {
      targetNamespace: "web",
      namePrefix: "prod-",
      nameSuffix: "-v2",
      images: [{ name: "nginx", newTag: "1.27" }],
      patches: [{ patch: '[{"op": "add", "path": "/data/region", "value": "eu"}]', target: { kind: "ConfigMap" } }],
    });
    const web = byKind(objects, "Deployment").object as unknown as {
      metadata: { name: string; namespace: string };
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    };
    expect(web.metadata).toMatchObject({ name: "prod-web-v2", namespace: "web" });
    expect(web.spec.template.spec.containers[0]!.image).toBe("nginx:1.27");
    expect(byKind(objects, "ConfigMap").object).toMatchObject({
      metadata: { name: "prod-settings-v2", namespace: "web" },
      data: { level: "info", region: "eu" },
    });
  });

  it("keeps the folder's own kustomization and adds to it: its images merged, its patches kept", async () => {
    const repoDir = await tempRepo({
      "apps/kustomization.yaml": `resources: [deployment.yaml]
images:
  - name: nginx
    newName: registry.example.com/nginx
    newTag: "1.25"
`,
      "apps/deployment.yaml": deployment,
    });
    const { objects } = await render(repoDir, "apps", { images: [{ name: "nginx", newTag: "1.27" }] });
    const web = byKind(objects, "Deployment").object as unknown as {
      spec: { template: { spec: { containers: Array<{ image: string }> } } };
    };
    expect(web.spec.template.spec.containers[0]!.image).toBe("registry.example.com/nginx:1.27");
  });

  it("sets commonMetadata and kustomize-controller's labels on each object's metadata, not on its pod template", async () => {
    const repoDir = await tempRepo({ "apps/deployment.yaml": deployment });
    const { objects } = await render(repoDir, "apps", {
      metadata: { labels: { team: "web", ...ownLabels }, annotations: { owner: "web-team" } },
    });
    const web = byKind(objects, "Deployment").object as unknown as {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: { template: { metadata: { labels: Record<string, string>; annotations?: unknown } } };
    };
    expect(web.metadata.labels).toEqual({ team: "web", ...ownLabels });
    expect(web.metadata.annotations).toEqual({ owner: "web-team" });
    expect(web.spec.template.metadata).toEqual({ labels: { app: "web" } });
  });

  it("leaves a missing component out only when the object says ignoreMissingComponents", async () => {
    const files = { "apps/deployment.yaml": deployment };
    await expect(render(await tempRepo(files), "apps", { components: ["../components/tls"] })).rejects.toThrow(
      /kustomize build failed/,
    );
    const { objects } = await render(await tempRepo(files), "apps", {
      components: ["../components/tls"],
      ignoreMissingComponents: true,
    });
    expect(objects).toHaveLength(1);
  });
});

describe("withFluxOverlay", () => {
  it("keeps the kustomization's comments and fields and appends to its lists", async () => {
    const text = `# the web app
resources: [deployment.yaml] # one file
patches:
  - path: replicas.yaml
`;
    const out = await withFluxOverlay({
      text,
      flux: flux({ patches: [{ patch: "kind: X" }], namePrefix: "prod-" }),
      exists: async () => true,
    });
    expect(out).toBe(`# the web app
resources: [ deployment.yaml ] # one file
patches:
  - path: replicas.yaml
  - patch: "kind: X"
namePrefix: prod-
`);
  });
});
