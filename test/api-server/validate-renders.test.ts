// `undrift validate` over kustomize and helm targets, with the pinned tools the test
// setup builds; no cluster is asked (validate takes no kubeconfig).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { undrift } from "../helpers/run-cli.ts";

const examples = resolve(import.meta.dirname, "../../examples/gitops");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function copyOfExamples(extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "undrift-validate-"));
  dirs.push(dir);
  cpSync(examples, dir, { recursive: true });
  for (const [path, text] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const chart = {
  "charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
  "charts/web/templates/cm.yaml":
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ required "values: name is required" .Values.name }}\n',
  "charts/web/values.yaml": "name: web\n",
};
const withChart = (config: string) =>
  `${config}  - name: web\n    cluster: local\n    path: charts/web\n    namespace: web\n`;

describe("undrift validate: kustomize and helm", () => {
  it("renders the examples' plain and kustomize targets and a chart, and exits 0", async () => {
    const dir = copyOfExamples(chart);
    const config = readFileSync(join(dir, ".github/undrift.yml"), "utf8");
    writeFileSync(join(dir, ".github/undrift.yml"), withChart(config));
    const result = await undrift(["validate", "--repo", dir]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(
      /^shop: valid \(plain, 4 objects\)\nplatform: valid \(kustomize, \d+ objects\)\nweb: valid \(helm, 1 object\)\n$/,
    );
  });

  it("names the kustomization and the chart template that do not render, one line each, exit 2", async () => {
    const dir = copyOfExamples({ ...chart, "charts/web/values.yaml": "other: 1\n" });
    const config = readFileSync(join(dir, ".github/undrift.yml"), "utf8");
    writeFileSync(join(dir, ".github/undrift.yml"), withChart(config));
    writeFileSync(
      join(dir, "platform/overlays/demo/kustomization.yaml"),
      "resources:\n  - namespace.yaml\n  - ../../nowhere\n",
    );
    const result = await undrift(["validate", "--repo", dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("shop: valid (plain, 4 objects)\nplatform: not valid\nweb: not valid\n");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("platform/overlays/demo");
    expect(lines[1]).toContain("charts/web/templates/cm.yaml");
    expect(lines[1]).toContain("values: name is required");
  });
});
