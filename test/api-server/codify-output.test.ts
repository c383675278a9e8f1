// What undrift codify says and leaves alone: --dry-run writes nothing and
// prints the diff; --output json for scripts; Secrets, helm output and edits
// that do not prove out are reported per object, never guessed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codifyResultSchema } from "../../src/report/codify/codify-json-schema.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info # the default
`;

const secret = `apiVersion: v1
kind: Secret
metadata:
  name: creds
stringData:
  password: git-password-1234
`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

function codify(s: Scenario, extra: string[] = []) {
  return undrift(["codify", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), ...extra]);
}

/** Every file of the repository with its text, to show nothing was written. */
function snapshot(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, snapshot(dir, rel));
    else out[rel] = readFileSync(join(dir, rel), "utf8");
  }
  return out;
}

describe("undrift codify: output and what it leaves", () => {
  it("--dry-run prints the unified diff and writes nothing", async () => {
    current = scenario({ files: { "manifests/config.yaml": config } });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const before = snapshot(s.repoDir);

    const result = await codify(s, ["--dry-run"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        "--- a/manifests/config.yaml",
        "+++ b/manifests/config.yaml",
        "@@ -3,4 +3,4 @@",
        " metadata:",
        "   name: app-config",
        " data:",
        "-  LOG_LEVEL: info # the default",
        "+  LOG_LEVEL: debug # the default",
      ].join("\n"),
    );
    expect(result.stdout).toContain("would codify 1 object, 0 not codified");
    expect(snapshot(s.repoDir)).toEqual(before);
    expect((await s.scanJson()).code).toBe(1);
  });

  it("--output json lists the files changed, the objects codified and those not codified", async () => {
    current = scenario({ files: { "manifests/config.yaml": config, "manifests/secret.yaml": secret } });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "secret",
      "creds",
      "-p",
      '{"stringData":{"password":"live-password-5678"}}',
    ]);

    const result = await codify(s, ["--output", "json"]);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(codifyResultSchema.parse(json)).toEqual(json);
    expect(json).toEqual({
      target: s.target,
      dryRun: false,
      filesChanged: ["manifests/config.yaml"],
      codified: [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          namespace: s.namespace,
          name: "app-config",
          status: "drifted",
          file: "manifests/config.yaml",
        },
      ],
      notCodified: [
        {
          apiVersion: "v1",
          kind: "Secret",
          namespace: s.namespace,
          name: "creds",
          reason: "Secret values stay out of Git",
        },
      ],
      problems: [],
    });
  });

  it("reports a changed Secret as not codified and writes or prints its value nowhere", async () => {
    current = scenario({ files: { "manifests/secret.yaml": secret } });
    const s = current;
    await s.applyGit();
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "secret",
      "creds",
      "-p",
      '{"stringData":{"password":"live-password-5678"}}',
    ]);
    await kubectl([
      "-n",
      s.namespace,
      "create",
      "secret",
      "generic",
      "stray-creds",
      "--from-literal=token=stray-token-9012",
    ]);
    await kubectl(["-n", s.namespace, "label", "secret", "stray-creds", `undrift.dev/target=${s.target}`]);

    const dry = await codify(s, ["--dry-run"]);
    const text = await codify(s);
    const json = await codify(s, ["--output", "json"]);
    for (const result of [dry, text, json]) expect(result.code).toBe(1);
    expect(text.stdout).toContain(`v1 Secret ${s.namespace}/creds: not codified: Secret values stay out of Git`);
    expect(text.stdout).toContain(`v1 Secret ${s.namespace}/stray-creds: not codified: Secret values stay out of Git`);
    expect(snapshot(s.repoDir)["manifests/secret.yaml"]).toBe(secret);
    const everything = [
      ...[dry, text, json].flatMap((r) => [r.stdout, r.stderr]),
      ...Object.values(snapshot(s.repoDir)),
    ].join("\n");
    for (const value of ["live-password-5678", "stray-token-9012"]) {
      expect(everything).not.toContain(value);
      expect(everything).not.toContain(Buffer.from(value).toString("base64"));
    }
  });

  it("says plainly that helm output is not codified, per object", async () => {
    current = scenario({
      target: { path: "chart", render: "helm" },
      files: {
        "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
        "chart/values.yaml": "level: info\n",
        "chart/templates/config.yaml":
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\ndata:\n  level: {{ .Values.level }}\n",
      },
    });
    const s = current;
    await s.applyGit();
    await kubectl(["-n", s.namespace, "patch", "configmap", `${s.target}-config`, "-p", '{"data":{"level":"debug"}}']);
    const before = snapshot(s.repoDir);

    const result = await codify(s);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `v1 ConfigMap ${s.namespace}/${s.target}-config: not codified: helm output is diffed and reverted, not codified`,
    );
    expect(snapshot(s.repoDir)).toEqual(before);
  });

  it("rolls back an edit that does not make the drift disappear and says why", async () => {
    // A generated ConfigMap's name carries a hash of its data: a patch to the data renames it, so the drift cannot go.
    current = scenario({
      target: { path: "app", render: "kustomize" },
      files: {
        "app/kustomization.yaml": "configMapGenerator:\n  - name: settings\n    literals:\n      - LEVEL=info\n",
      },
    });
    const s = current;
    await s.applyGit();
    const name = JSON.parse(await kubectl(["-n", s.namespace, "get", "configmap", "-o", "json"])).items.find(
      (c: { metadata: { name: string } }) => c.metadata.name.startsWith("settings-"),
    ).metadata.name;
    await kubectl(["-n", s.namespace, "patch", "configmap", name, "-p", '{"data":{"LEVEL":"debug"}}']);
    const before = snapshot(s.repoDir);

    const result = await codify(s);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `v1 ConfigMap ${s.namespace}/${name}: not codified: the edited files no longer declare it; it is generated by app/kustomization.yaml; change the generator's input there`,
    );
    expect(snapshot(s.repoDir)).toEqual(before);
  });

  it("fails with one line and exit code 2 when called wrongly", async () => {
    const noTarget = await undrift(["codify", "--repo", "."]);
    expect(noTarget).toMatchObject({ code: 2, stdout: "" });
    expect(noTarget.stderr).toBe("--target is required (a target name from .github/undrift.yml)\n");
    const badOutput = await undrift(["codify", "--repo", ".", "--target", "x", "--output", "markdown"]);
    expect(badOutput.stderr).toBe('--output: expected one of text, json, got "markdown"\n');
    current = scenario({ files: { "manifests/config.yaml": config } });
    const unknown = await undrift([
      "codify",
      "--repo",
      current.repoDir,
      "--target",
      "nope",
      "--kubeconfig",
      kubeconfigPath(),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^target "nope" is not in \.github\/undrift\.yml \(it has: app-[0-9a-f]+\)\n$/);
  });
});
