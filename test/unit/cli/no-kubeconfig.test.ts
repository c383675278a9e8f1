// A newcomer without any kubeconfig: every command that talks to a cluster says
// what is missing in one line, as kubectl does, before it contacts anything.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { undrift } from "../../helpers/run-cli.ts";

const expected = "no kubeconfig: set KUBECONFIG, pass --kubeconfig FILE, or create ~/.kube/config\n";

describe("no KUBECONFIG, no ~/.kube/config, no --kubeconfig", () => {
  let home: string;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "undrift-home-"));
    repo = mkdtempSync(join(tmpdir(), "undrift-repo-"));
    mkdirSync(join(repo, ".github"));
    mkdirSync(join(repo, "manifests"));
    writeFileSync(join(repo, ".github", "undrift.yml"), "targets:\n- {name: app, cluster: test, path: manifests}\n");
    writeFileSync(join(repo, "manifests", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
    const { KUBECONFIG: _k, KUBERNETES_SERVICE_HOST: _h, KUBERNETES_SERVICE_PORT: _p, ...rest } = process.env;
    env = { ...rest, HOME: home };
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  });

  it.each([
    ["scan", []],
    ["revert", ["--dry-run"]],
    ["codify", ["--dry-run"]],
    ["preview", ["--base", "main", "--head", "HEAD"]],
  ])("%s says what is missing in one line and exits 2", async (command, extra) => {
    const result = await undrift([command, "--repo", repo, "--target", "app", ...extra], { env });
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
      code: 2,
      stderr: expected,
      stdout: "",
    });
  });
});
