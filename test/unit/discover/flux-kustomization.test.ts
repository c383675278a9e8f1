import { describe, expect, it } from "vitest";
import { discoverEntrySchema } from "../../../src/config/discover-schema.ts";
import { fluxKustomizationTarget } from "../../../src/discover/flux-kustomization.ts";
import type { KubeObject } from "../../../src/model/types.ts";

const repository = { host: "github.com", owner: "acme", repo: "gitops" };
const entry = discoverEntrySchema.parse({ cluster: "prod", flux: true });

function gitRepository(namespace: string, name: string, url: string): KubeObject {
  return {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { namespace, name },
    spec: { url },
  };
}

function kustomization(spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { namespace: "flux-system", name: "apps" },
    spec: { interval: "10m", sourceRef: { kind: "GitRepository", name: "gitops" }, ...spec },
    status,
  };
}

const sources = new Map([
  ["flux-system/gitops", gitRepository("flux-system", "gitops", "ssh://git@github.com/acme/gitops.git")],
  ["flux-system/other", gitRepository("flux-system", "other", "https://github.com/acme/other")],
  ["infra/gitops", gitRepository("infra", "gitops", "https://github.com/acme/gitops")],
]);

const found = (k: KubeObject, e = entry) =>
  fluxKustomizationTarget({ kustomization: k, sources, repository, entry: e, name: "ks-flux-system-apps" });

describe("a Flux Kustomization as a target", () => {
  it("follows the object: path, namespace, force, field manager, tracking by Flux's labels, prune as a preview", () => {
    const result = found(kustomization({ path: "./apps/prod", targetNamespace: "web", prune: true, force: true }));
    expect(result).toMatchObject({
      ok: true,
      target: {
        name: "ks-flux-system-apps",
        cluster: "prod",
        path: "apps/prod",
        render: "kustomize",
        namespace: "web",
        mode: "warn",
        prune: "preview",
        force: true,
        fieldManager: "kustomize-controller",
        tracking: {
          selector: "kustomize.toolkit.fluxcd.io/name=apps,kustomize.toolkit.fluxcd.io/namespace=flux-system",
        },
        origin: { from: "flux", kind: "Kustomization", namespace: "flux-system", name: "apps" },
      },
    });
  });

  it("carries what kustomize-controller adds to the build: overlays, commonMetadata and its own labels last", () => {
    const result = found(
      kustomization({
        path: "/apps",
        namePrefix: "prod-",
        nameSuffix: "-v2",
        images: [{ name: "nginx", newTag: "1.27" }, { newTag: "no name" }],
        patches: [{ patch: "- op: remove\n  path: /spec/replicas", target: { kind: "Deployment" } }],
        components: ["../components/tls"],
        commonMetadata: {
          labels: { team: "web", "kustomize.toolkit.fluxcd.io/name": "spoofed" },
          annotations: { owner: "web" },
        },
      }),
    );
    expect(result.ok && result.target.path).toBe("apps");
    expect(result.ok && result.target.flux).toEqual({
      namePrefix: "prod-",
      nameSuffix: "-v2",
      images: [{ name: "nginx", newTag: "1.27" }],
      patches: [{ patch: "- op: remove\n  path: /spec/replicas", target: { kind: "Deployment" } }],
      components: ["../components/tls"],
      ignoreMissingComponents: false,
      metadata: {
        labels: {
          team: "web",
          "kustomize.toolkit.fluxcd.io/name": "apps",
          "kustomize.toolkit.fluxcd.io/namespace": "flux-system",
        },
        annotations: { owner: "web" },
      },
    });
  });

  it("says it is suspended and which revision Flux last applied", () => {
    const result = found(kustomization({ suspend: true }, { lastAppliedRevision: "main@sha1:0123abc" }));
    expect(result.ok && result.target.origin).toEqual({
      from: "flux",
      kind: "Kustomization",
      namespace: "flux-system",
      name: "apps",
      suspended: true,
      lastAppliedRevision: "main@sha1:0123abc",
    });
  });

  it("takes the entry's mode and prune over the object's prune", () => {
    const strict = discoverEntrySchema.parse({ cluster: "prod", flux: true, mode: "revert", prune: false });
    expect(found(kustomization({ prune: true }), strict)).toMatchObject({
      ok: true,
      target: { mode: "revert", prune: false },
    });
    expect(found(kustomization({ prune: false }))).toMatchObject({ ok: true, target: { prune: false } });
  });

  it("is not this repository's when its source is another repository, an OCI artifact or missing", () => {
    expect(found(kustomization({ sourceRef: { kind: "GitRepository", name: "other" } }))).toEqual({
      ok: false,
      otherSource: true,
    });
    expect(found(kustomization({ sourceRef: { kind: "OCIRepository", name: "gitops" } }))).toMatchObject({
      otherSource: true,
    });
    expect(found(kustomization({ sourceRef: { kind: "GitRepository", name: "gone" } }))).toMatchObject({
      otherSource: true,
    });
  });

  it("reads a source in another namespace when the reference names it", () => {
    const result = found(kustomization({ sourceRef: { kind: "GitRepository", name: "gitops", namespace: "infra" } }));
    expect(result.ok).toBe(true);
  });

  it("is a target that carries its postBuild substitutions as references, never values, in list order", () => {
    const result = found(
      kustomization({
        postBuild: {
          substitute: { cluster: "prod" },
          substituteFrom: [
            { kind: "ConfigMap", name: "vars", optional: true },
            { kind: "Secret", name: "secret-vars" },
          ],
        },
      }),
    );
    expect(result.ok && result.target.flux?.postBuild).toEqual({
      kustomization: "flux-system/apps",
      substitute: { cluster: "prod" },
      substituteFrom: [
        { kind: "ConfigMap", name: "vars", optional: true },
        { kind: "Secret", name: "secret-vars", optional: false },
      ],
      always: false,
    });
    const always = found(kustomization({ postBuild: { substituteStrategy: "Always" } }));
    expect(always.ok && always.target.flux?.postBuild).toMatchObject({ substituteFrom: [], always: true });
    const none = found(kustomization({}));
    expect(none.ok && none.target.flux).not.toHaveProperty("postBuild");
  });

  it("names the field of a substituteFrom entry that is neither a ConfigMap nor a Secret", () => {
    expect(
      found(
        kustomization({
          postBuild: {
            substituteFrom: [
              { kind: "ConfigMap", name: "a" },
              { kind: "Bucket", name: "b" },
            ],
          },
        }),
      ),
    ).toEqual({
      ok: false,
      otherSource: false,
      problem:
        "Kustomization flux-system/apps: spec.postBuild.substituteFrom[1]: kind must be ConfigMap or Secret, with a name",
    });
  });

  it("names the object and field when its path leaves the repository", () => {
    expect(found(kustomization({ path: "../../etc" }))).toEqual({
      ok: false,
      otherSource: false,
      problem: 'Kustomization flux-system/apps: spec.path: "../../etc" leaves the repository',
    });
  });
});
