// Mistakes in Git reach the user as one line that names the file and what is wrong, exit code 2.
import { afterEach, describe, expect, it } from "vitest";
import { type Scenario, scenario, undrift } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`;

async function failure(files: Record<string, string>) {
  current = scenario({ files });
  const result = await current.scan();
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe("undrift scan: errors", () => {
  it("names the object and file of a kind the cluster does not know", async () => {
    const line = await failure({
      "manifests/gadget.yaml": `${configMap("ok")}---\napiVersion: nowhere.example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\n`,
    });
    expect(line).toContain("manifests/gadget.yaml");
    expect(line).toContain("document 1");
    expect(line).toMatch(/nowhere\.example\.com\/v1 Gadget "g1": unknown kind/);
  });

  it("names the file and line of invalid YAML", async () => {
    const line = await failure({ "manifests/bad.yaml": `${configMap("a")}  b: c: d\n` });
    expect(line).toMatch(/manifests\/bad\.yaml:7: /);
  });

  it("names the file and line of a Secret whose data is not base64, never its value, and compares nothing", async () => {
    const line = await failure({
      "manifests/db.yaml":
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  user: YWRtaW4=\n  password: hunter2-plain!\n",
    });
    expect(line).toBe('manifests/db.yaml:7: document 0: Secret "db": data.password is not valid base64');
  });

  it("names both sources of an object declared twice", async () => {
    const line = await failure({
      "manifests/a.yaml": configMap("twice"),
      "manifests/b.yaml": `${configMap("other")}---\n${configMap("twice")}`,
    });
    expect(line).toContain("duplicate object ConfigMap");
    expect(line).toContain("manifests/a.yaml (document 0)");
    expect(line).toContain("manifests/b.yaml (document 1)");
  });

  it("names the config file, line and field of an invalid config", async () => {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    current.write({
      ".github/undrift.yml": "targets:\n  - name: app\n    cluster: test\n    path: manifests\n    mode: sometimes\n",
    });
    const result = await current.scan();
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      ".github/undrift.yml:5: targets[0].mode: expected one of warn, codify, revert, heal",
    );
  });

  it("says which targets exist when asked for one that does not", async () => {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    const result = await undrift(["scan", "--repo", current.repoDir, "--target", "nope", "--kubeconfig", "/dev/null"]);
    expect(result.code).toBe(2);
  });

  it("refuses a bad flag with one line and no stack trace", async () => {
    const result = await undrift(["scan", "--repo", ".", "--target", "x", "--output", "yaml"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr.trim()).toBe('--output: expected one of text, json, markdown, got "yaml"');
  });

  it("reports an unreachable cluster in one line", async () => {
    current = scenario({ files: { "manifests/a.yaml": configMap("a") } });
    const result = await current.scan({ extra: ["--context", "nowhere"] });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^context "nowhere" is not in /);
  });
});
