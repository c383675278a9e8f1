// What the repository's other targets declare, read from the tree a target was scanned from: keyed as the scan
// pairs live objects, with the targets that did not render named, so a prune keeps their objects.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../../../src/config/load-config.ts";
import { pickTarget } from "../../../../src/config/pick-target.ts";
import type { ApiResource } from "../../../../src/live/api-resource.ts";
import { ResourceIndex } from "../../../../src/live/discovery.ts";
import { otherTargetsOf } from "../../../../src/stages/scan/other-targets-of.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const resource = (group: string, kind: string, namespaced: boolean): ApiResource => ({
  group,
  version: "v1",
  kind,
  resource: `${kind.toLowerCase()}s`,
  namespaced,
  verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
  preferred: true,
});
const index = new ResourceIndex([
  resource("", "ConfigMap", true),
  resource("rbac.authorization.k8s.io", "ClusterRole", false),
]);

async function repo(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "undrift-others-"));
  scratch.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const config = loadConfig(`targets:
- {name: app, cluster: a, path: app, namespace: shop, tracking: {selector: team=x}}
- {name: api, cluster: a, path: api, namespace: api}
- {name: edge, cluster: b, path: edge}
`);

describe("what the other targets declare", () => {
  it("keys every other target's objects as the scan pairs them, naming the targets, never the target itself", async () => {
    const repoDir = await repo({
      "app/own.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: own}\n",
      "api/objects.yaml": [
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: shop}\n",
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: reader}\n",
        // A kind the cluster does not serve yet: its scope is unknown, so both keys count.
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n",
      ].join("---\n"),
      "edge/shared.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: shop}\n",
    });
    const others = await otherTargetsOf({ repoDir, config, target: pickTarget(config, "app"), index });
    expect(others.unknown).toEqual([]);
    expect(Object.fromEntries(others.declared)).toEqual({
      "/ConfigMap/api/settings": ["api"],
      "/ConfigMap/shop/shared": ["api", "edge"],
      "rbac.authorization.k8s.io/ClusterRole//reader": ["api"],
      "example.com/Widget/api/w": ["api"],
      "example.com/Widget//w": ["api"],
    });
  });

  it("names a target that does not render, or skips a document, as unknown, with why", async () => {
    const repoDir = await repo({
      "app/own.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: own}\n",
      "api/broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: [not, a, map\n",
      "edge/notes.yaml": "just: notes\n",
    });
    const others = await otherTargetsOf({ repoDir, config, target: pickTarget(config, "app"), index });
    expect(others.declared.size).toBe(0);
    expect(others.unknown.map((u) => u.target)).toEqual(["api", "edge"]);
    expect(others.unknown[0]?.reason).toContain("broken.yaml");
    expect(others.unknown[1]?.reason).toMatch(/^its render skipped edge\/notes.yaml: /);
  });
});
