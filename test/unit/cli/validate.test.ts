// `undrift validate` in a CI step: no cluster, no kubeconfig; exit 0 when the config and
// every render are valid, else 2 with one line per error naming file, line and field.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { undrift } from "../../helpers/run-cli.ts";

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`;
const repos: string[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) rmSync(r, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "undrift-validate-"));
  repos.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

// No kubeconfig anywhere: validate must not need one.
const { KUBECONFIG: _k, ...rest } = process.env;
const env = { ...rest, HOME: tmpdir() };
const twoTargets =
  "targets:\n  - {name: shop, cluster: prod, path: shop}\n  - {name: infra, cluster: prod, path: infra}\n";

describe("undrift validate", () => {
  it("exits 0 and says per target what rendered, without a cluster", async () => {
    const dir = repo({
      ".github/undrift.yml": twoTargets,
      "shop/a.yaml": `${configMap("a")}---\n${configMap("b")}`,
      "infra/c.yaml": configMap("c"),
    });
    const result = await undrift(["validate", "--repo", dir], { env });
    expect(result).toEqual({
      code: 0,
      stdout: "shop: valid (plain, 2 objects)\ninfra: valid (plain, 1 object)\n",
      stderr: "",
    });
  });

  it("lists every config error, one line each with file, line and field, and exits 2", async () => {
    const dir = repo({
      ".github/undrift.yml":
        "targets:\n  - name: shop\n    cluster: prod\n    path: shop\n    mode: fix\n    prune: sometimes\n",
      "shop/a.yaml": configMap("a"),
    });
    const result = await undrift(["validate", "--repo", dir], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\.github\/undrift\.yml:5: targets\[0\]\.mode: /);
    expect(lines[1]).toMatch(/^\.github\/undrift\.yml:6: targets\[0\]\.prune: /);
  });

  it("names the file and line of a manifest that does not render, and still checks the other targets", async () => {
    const dir = repo({
      ".github/undrift.yml": twoTargets,
      "shop/bad.yaml": `${configMap("a")}  b: c: d\n`,
      "infra/c.yaml": configMap("c"),
    });
    const result = await undrift(["validate", "--repo", dir], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("shop: not valid\ninfra: valid (plain, 1 object)\n");
    expect(result.stderr).toMatch(/^shop\/bad\.yaml:7: .*\(target shop\)\n$/);
  });

  it("refuses a YAML 1.1 boolean where Kubernetes wants a string, in kubectl's words", async () => {
    const dir = repo({
      ".github/undrift.yml": twoTargets,
      "shop/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  enabled: yes\n",
      "infra/c.yaml": configMap("c"),
    });
    const result = await undrift(["validate", "--repo", dir], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("shop: not valid\ninfra: valid (plain, 1 object)\n");
    expect(result.stderr).toBe(
      'shop/cm.yaml:6: document 0: ConfigMap "flags": data.enabled: cannot unmarshal bool into Go struct field ConfigMap.data of type string (YAML 1.1 reads yes, no, on and off as booleans: quote the value) (target shop)\n',
    );
  });

  it("finds an object declared twice, and a target folder that does not exist", async () => {
    const dir = repo({
      ".github/undrift.yml": twoTargets,
      "shop/a.yaml": configMap("a"),
      "shop/b.yaml": configMap("a"),
    });
    const result = await undrift(["validate", "--repo", dir], { env });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toBe(
      "duplicate object ConfigMap default/a: shop/a.yaml (document 0) and shop/b.yaml (document 0) (target shop)",
    );
    expect(lines[1]).toMatch(/^infra: target "infra": the folder does not exist/);
  });

  it("--target checks one target; an unknown one is named with those there are", async () => {
    const dir = repo({ ".github/undrift.yml": twoTargets, "shop/a.yaml": configMap("a") });
    expect(await undrift(["validate", "--repo", dir, "--target", "shop"], { env })).toEqual({
      code: 0,
      stdout: "shop: valid (plain, 1 object)\n",
      stderr: "",
    });
    const unknown = await undrift(["validate", "--repo", dir, "--target", "shp"], { env });
    expect(unknown).toEqual({
      code: 2,
      stdout: "",
      stderr: 'target "shp" is not in .github/undrift.yml (it has: shop, infra)\n',
    });
  });

  it("-o json gives the same verdict for a CI step to read", async () => {
    const dir = repo({
      ".github/undrift.yml": twoTargets,
      "shop/a.yaml": configMap("a"),
      "infra/bad.yaml": "apiVersion: v1\nkind: ConfigMap\nmetdata:\n  name: x\n",
    });
    const result = await undrift(["validate", "--repo", dir, "-o", "json"], { env });
    expect(result.code).toBe(2);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      valid: false,
      targets: [
        { name: "shop", valid: true, renderer: "plain", objects: 1 },
        { name: "infra", valid: false },
      ],
      errors: [{ target: "infra", file: "infra/bad.yaml", line: 3 }],
    });
    expect(json.errors[0].message).toContain('"metdata"');
  });
});
