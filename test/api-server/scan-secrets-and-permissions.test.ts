// Secret values never appear in any output, plain or base64; a read-only
// identity gets a scan of what it may read, with the rest named as problems.
import { afterEach, describe, expect, it } from "vitest";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { contexts, kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

const gitValue = "git-password-4711";
const handValue = "hand-typed-s3cr3t-0815";
const b64 = (s: string) => Buffer.from(s).toString("base64");

const files = {
  "manifests/secret.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: db
type: Opaque
stringData:
  password: ${gitValue}
`,
  "manifests/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n",
};

describe("undrift scan: secrets", () => {
  it("shows a changed Secret value as changed, masked in text, JSON and markdown", async () => {
    current = scenario({ files });
    await current.applyGit();
    expect((await current.scanReport()).code).toBe(0);

    await kubectl([
      "-n",
      current.namespace,
      "patch",
      "secret",
      "db",
      "-p",
      JSON.stringify({ data: { password: b64(handValue) } }),
    ]);
    for (const output of ["text", "json", "markdown"] as const) {
      const result = await current.scan({ output });
      expect(result.code).toBe(1);
      for (const secret of [gitValue, handValue, b64(gitValue), b64(handValue)]) {
        expect(result.stdout).not.toContain(secret);
        expect(result.stderr).not.toContain(secret);
      }
      expect(result.stdout).toContain("*** (before)");
      expect(result.stdout).toContain("*** (after)");
    }
    const { report } = await current.scanReport();
    expect(report.resources.find((r) => r.kind === "Secret")?.changes).toEqual([
      expect.objectContaining({
        path: "/data/password",
        desired: "*** (after)",
        live: "*** (before)",
        manager: "kubectl-patch",
      }),
    ]);
  });

  it("never prints the values of a missing or orphaned Secret", async () => {
    current = scenario({ files });
    await kubectl(["create", "namespace", current.namespace]);
    await kubectl([
      "-n",
      current.namespace,
      "create",
      "secret",
      "generic",
      "stray",
      `--from-literal=token=${handValue}`,
    ]);
    await kubectl(["-n", current.namespace, "label", "secret", "stray", `undrift.dev/target=${current.target}`]);
    for (const output of ["text", "json", "markdown"] as const) {
      const result = await current.scan({ output });
      expect(result.code).toBe(1);
      for (const secret of [gitValue, handValue, b64(gitValue), b64(handValue)])
        expect(result.stdout).not.toContain(secret);
    }
    // The JSON shows a missing object's body as the text does, the Secret's values masked alike.
    const { report } = await current.scanReport();
    const missing = report.resources.find((r) => r.kind === "Secret" && r.name === "db");
    expect(missing).toMatchObject({ status: "missing", wouldBe: { kind: "Secret", stringData: { password: "***" } } });
    expect((await current.scan()).stdout).toContain('+stringData:\n+  password: "***"\n');
    // stats.objects counts what the report lists (the two declared objects and the orphan); desired what Git declares.
    expect(report.resources).toHaveLength(3);
    expect(report.stats).toMatchObject({ objects: 3, desired: 2 });
  });
});

describe("undrift scan: a read-only identity", () => {
  it("compares what it may list and names the kind it may not", async () => {
    current = scenario({ files });
    await current.applyGit();
    await kubectl(["-n", current.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);

    const result = await current.scanReport({ context: contexts.reader });
    expect(result.code).toBe(1);
    const { report } = result;
    expect(report.resources.map((r) => r.kind)).toEqual(["ConfigMap"]);
    expect(report.resources[0]?.changes).toEqual([
      expect.objectContaining({ path: "/data/LOG_LEVEL", desired: "info", live: "debug" }),
    ]);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "Secret", message: expect.stringMatching(/cannot list secrets.*Forbidden/) }),
      ]),
    );
    // The reader may not dry-run either, so the drift it reports is the local pass's, and it says so.
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "ConfigMap", message: expect.stringMatching(/not confirmed by dry-run/) }),
      ]),
    );
  });

  it("names each object once in each problem, in the scan and in a revert's dry run", async () => {
    current = scenario({ files });
    await current.applyGit();
    await kubectl(["-n", current.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);

    const scan = await current.scan({ context: contexts.reader });
    expect(scan.code).toBe(1);
    const problems = scan.stdout.split("\n").filter((l) => l.startsWith("! "));
    expect(problems).toContain(
      `! ConfigMap ${current.namespace}/settings: not confirmed by dry-run: 403 Forbidden: User "undrift-reader" cannot patch resource "configmaps" in API group "" in the namespace "${current.namespace}"`,
    );
    expect(problems).toContain("! Secret: cannot list secrets: Forbidden (403)");
    for (const line of problems) expect(line.split("settings").length).toBeLessThanOrEqual(2);

    const revert = await undrift([
      ...["revert", "--dry-run", "--repo", current.repoDir, "--target", current.target],
      ...["--kubeconfig", kubeconfigPath(), "--context", contexts.reader],
    ]);
    const lines = revert.stdout.split("\n");
    expect(lines).toContain(
      `failed      v1 ConfigMap ${current.namespace}/settings: taking over hand-made fields refused: 403 Forbidden: User "undrift-reader" cannot patch resource "configmaps" in API group "" in the namespace "${current.namespace}"`,
    );
    expect(lines).toContain("! Secret: cannot list secrets: Forbidden (403)");
    for (const line of lines) expect(line.split("settings").length).toBeLessThanOrEqual(2);
  });

  it("exits 2 when nothing could be compared", async () => {
    current = scenario({ files: { "manifests/secret.yaml": files["manifests/secret.yaml"] } });
    await current.applyGit();
    const result = await current.scan({ output: "json", context: contexts.reader });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).problems[0].message).toMatch(/cannot list secrets/);
  });
});
