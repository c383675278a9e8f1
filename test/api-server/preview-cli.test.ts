// `undrift preview` as a reviewer runs it: two commits of a local clone, the
// real test cluster, and the answer to "what would merging this do". Every
// apply in a preview is a dry run, so each test also checks the cluster kept
// its state.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { PreviewReport } from "../../src/model/preview-report.ts";
import { previewReportSchema } from "../../src/report/preview/preview-json-schema.ts";
import { clusterWhereOf, kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const run = promisify(execFile);
const scenarios: Scenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((s) => s.cleanup()));
});

const configMap = (name: string, extra = "") => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}${extra}
data:
  color: blue
`;

const service = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - port: 80
`;

async function git(s: Scenario, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", [
    "-C",
    s.repoDir,
    "-c",
    "user.name=t",
    "-c",
    "user.email=t@example.com",
    ...args,
  ]);
  return stdout.trim();
}

/** A repository whose `main` holds `files`, applied to the cluster, with the head commit on branch `change`. */
async function pullRequest(params: {
  base: Record<string, string>;
  /** Head's files (null: removed), or a function of the scenario for files that name its target or namespace. */
  head: Record<string, string | null> | ((s: Scenario) => Record<string, string | null>);
  target?: Record<string, unknown>;
}): Promise<Scenario> {
  const s = scenario({ files: params.base, target: params.target });
  scenarios.push(s);
  await git(s, "init", "-q", "-b", "main");
  await git(s, "add", "-A");
  await git(s, "commit", "-q", "-m", "base");
  await s.applyGit();
  await git(s, "checkout", "-q", "-b", "change");
  const writes: Record<string, string> = {};
  const head = typeof params.head === "function" ? params.head(s) : params.head;
  for (const [path, text] of Object.entries(head)) {
    if (text === null) await git(s, "rm", "-q", path);
    else writes[path] = text;
  }
  s.write(writes);
  await git(s, "add", "-A");
  await git(s, "commit", "-q", "--allow-empty", "-m", "change");
  // The reviewer's working tree is back on main: the preview reads commits, not the checkout.
  await git(s, "checkout", "-q", "main");
  return s;
}

async function preview(s: Scenario, output = "json", refs = { base: "main", head: "change" }) {
  const args = ["preview", "--repo", s.repoDir, "--base", refs.base, "--head", refs.head, "--target", s.target];
  return undrift([...args, "--kubeconfig", kubeconfigPath(), "--output", output]);
}

async function previewJson(s: Scenario): Promise<{ code: number; report: PreviewReport; stderr: string }> {
  const result = await preview(s);
  if (!result.stdout) throw new Error(`preview printed nothing: ${result.stderr}`);
  const json = JSON.parse(result.stdout);
  // Every real preview is what schema/preview.schema.json says, with no field it leaves undescribed.
  expect(previewReportSchema.parse(json)).toEqual(json);
  return { code: result.code, report: json as PreviewReport, stderr: result.stderr };
}

const find = (report: PreviewReport, kind: string, name: string) =>
  report.resources.find((r) => r.kind === kind && r.name === name);

describe("undrift preview", () => {
  it("shows a changed field against live, a created object with server defaults, and an orphan", async () => {
    const s = await pullRequest({
      base: { "manifests/web.yaml": webDeployment, "manifests/old.yaml": configMap("old") },
      head: {
        "manifests/web.yaml": webDeployment.replace("replicas: 2 # Git says two", "replicas: 3"),
        "manifests/service.yaml": service,
        "manifests/fresh.yaml": configMap("fresh"),
        "manifests/old.yaml": null,
      },
    });
    const { code, report } = await previewJson(s);
    expect(code).toBe(1);
    expect(report.status).toBe("previewed");
    const web = find(report, "Deployment", "web")!;
    expect(web.action).toBe("change");
    expect(web.changes).toContainEqual(expect.objectContaining({ path: "/spec/replicas", desired: 3, live: 2 }));
    const svc = find(report, "Service", "web")!;
    expect(svc.action).toBe("create");
    // Defaults only the API server knows: the preview asked it by dry-run.
    expect(svc.wouldBe?.spec).toMatchObject({ type: "ClusterIP", sessionAffinity: "None" });
    // Only Secrets are masked: a ConfigMap's values are what reviewers must read.
    expect(find(report, "ConfigMap", "fresh")).toMatchObject({
      action: "create",
      wouldBe: { data: { color: "blue" } },
    });
    // prune defaults to false: the merge leaves the ConfigMap running, untracked.
    expect(report.prune).toEqual([
      expect.objectContaining({
        kind: "ConfigMap",
        name: "old",
        action: "orphan",
        reason: "prune is off: listed only",
      }),
    ]);
    expect(report.summary).toMatchObject({ create: 2, change: 1, prune: 0, orphan: 1, drift: 0 });
    // Counted as the scan counts: every object listed, what head declares, the two creates' dry-runs among the rest.
    expect(report.stats).toMatchObject({ objects: report.resources.length + report.prune.length, desired: 3 });
    expect(report.stats!.dryRuns).toBeGreaterThanOrEqual(2);
    expect(report.stats!.requests).toBeGreaterThan(report.stats!.dryRuns);

    // Nothing was applied or deleted: every request was a dry run.
    expect(await kubectl(["get", "deployment", "web", "-n", s.namespace, "-o", "jsonpath={.spec.replicas}"])).toBe("2");
    await expect(kubectl(["get", "service", "web", "-n", s.namespace])).rejects.toThrow(/NotFound/);
    await kubectl(["get", "configmap", "old", "-n", s.namespace]);

    const text = await preview(s, "text");
    expect(text.code).toBe(1);
    // The first line names the context and server compared with, as scan's does.
    expect(text.stdout.split("\n")[0]).toContain(clusterWhereOf());
    expect(text.stdout).toContain("/spec/replicas");
    const markdown = await preview(s, "markdown");
    expect(markdown.stdout).toContain("/spec/replicas");
    expect(markdown.stdout).toMatch(/would be orphaned/i);
  });

  it("says an object the server refuses as invalid would fail to apply, and why, for a change and a create", async () => {
    const badPort = (text: string) => text.replace("- port: 80", "- port: 99999\n      targetPort: 80");
    const s = await pullRequest({
      base: { "manifests/service.yaml": service },
      head: {
        "manifests/service.yaml": badPort(service),
        "manifests/other.yaml": badPort(service.replace("name: web", "name: other")),
      },
    });
    const { report } = await previewJson(s);
    const why = "422 Invalid: spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive";
    expect(find(report, "Service", "web")).toMatchObject({ action: "change", fails: why });
    expect(find(report, "Service", "other")).toMatchObject({ action: "create", fails: why });
    expect(find(report, "Service", "other")?.note).toBeUndefined();
    const text = await preview(s, "text");
    expect(text.stdout).toContain(
      `~ change: v1 Service ${s.namespace}/web (manifests/service.yaml#0)\n  ! would fail: ${why}`,
    );
    expect(text.stdout).toContain(`  ! would fail: ${why}`);
    const markdown = await preview(s, "markdown");
    expect(markdown.stdout).toContain("**2 would fail**");
    // Markdown escapes the brackets of `ports[0]`; they show as written.
    expect(markdown.stdout).toContain(`**would fail:** ${why.replace("[0]", "\\[0\\]")}`);
  });

  it("with prune true, marks the orphan for deletion and keeps an opted-out one, naming the annotation", async () => {
    const s = await pullRequest({
      target: { prune: true },
      base: {
        "manifests/web.yaml": webDeployment,
        "manifests/a.yaml": configMap("a"),
        "manifests/b.yaml": configMap("b"),
        "manifests/c.yaml": configMap("c"),
        "manifests/d.yaml": configMap("d"),
        "manifests/kept.yaml": configMap("kept", "\n  annotations:\n    undrift.dev/prune: disabled"),
      },
      head: { "manifests/a.yaml": null, "manifests/kept.yaml": null },
    });
    const { code, report } = await previewJson(s);
    expect(code).toBe(1);
    const byName = Object.fromEntries(report.prune.map((p) => [p.name, p]));
    expect(byName.a?.action).toBe("delete");
    expect(byName.kept).toMatchObject({
      action: "keep",
      reason: expect.stringContaining("undrift.dev/prune: disabled"),
    });
    expect(report.summary).toMatchObject({ prune: 1, keep: 1, change: 0, create: 0 });
    await kubectl(["get", "configmap", "a", "-n", s.namespace]);
  });

  it("keeps an object the PR moves to another target of the repository, naming that target", async () => {
    const api = uniqueName("api");
    const s = await pullRequest({
      target: { prune: true },
      base: {
        "manifests/web.yaml": webDeployment,
        "manifests/a.yaml": configMap("a"),
        "manifests/b.yaml": configMap("b"),
        "manifests/c.yaml": configMap("c"),
        "manifests/d.yaml": configMap("d"),
      },
      head: (s) => ({
        "manifests/a.yaml": null,
        "api/a.yaml": configMap("a"),
        ".github/undrift.yml": stringify({
          targets: [
            { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, prune: true },
            { name: api, cluster: "test", path: "api", namespace: s.namespace },
          ],
        }),
      }),
    });
    const { code, report } = await previewJson(s);
    expect(report.prune).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        namespace: s.namespace,
        name: "a",
        action: "keep",
        guard: "declared-elsewhere",
        reason: `target ${api} declares it`,
      },
    ]);
    expect(report.summary).toMatchObject({ prune: 0, keep: 1 });
    expect(code).toBe(0);
    const markdown = await preview(s, "markdown");
    expect(markdown.stdout).toContain(`target ${api} declares it`);
  });

  it("shows a prune of a target emptied by the PR as refused, with why", async () => {
    const s = await pullRequest({
      target: { prune: true },
      base: { "manifests/a.yaml": configMap("a"), "manifests/b.yaml": configMap("b") },
      head: { "manifests/a.yaml": null, "manifests/b.yaml": null, "manifests/README.md": "emptied\n" },
    });
    const { code, report } = await previewJson(s);
    expect(code).toBe(1);
    expect(report.pruneRefused).toMatch(/empty render never prunes/);
    expect(report.prune.map((p) => p.action)).toEqual(["refused", "refused"]);
    expect(report.summary).toMatchObject({ prune: 0, refused: 2 });
  });

  it("masks a changed and a created Secret in every output, and still shows them", async () => {
    const secret = (name: string, value: string) => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
stringData:
  password: ${value}
`;
    const s = await pullRequest({
      base: { "manifests/secret.yaml": secret("creds", "old-hunter2-value") },
      head: {
        "manifests/secret.yaml": secret("creds", "new-hunter3-value"),
        "manifests/token.yaml": secret("token", "fresh-hunter4-value"),
      },
    });
    const { report } = await previewJson(s);
    expect(find(report, "Secret", "creds")?.action).toBe("change");
    expect(find(report, "Secret", "token")?.action).toBe("create");
    for (const output of ["json", "text", "markdown"]) {
      const { stdout } = await preview(s, output);
      expect(stdout).toContain("token");
      for (const value of ["old-hunter2-value", "new-hunter3-value", "fresh-hunter4-value"]) {
        expect(stdout).not.toContain(value);
        expect(stdout).not.toContain(Buffer.from(value).toString("base64"));
      }
      expect(stdout).toContain("creds");
    }
  });

  it("reports drift the cluster already has against base", async () => {
    const s = await pullRequest({
      base: { "manifests/web.yaml": webDeployment, "manifests/cfg.yaml": configMap("cfg") },
      head: { "manifests/cfg.yaml": configMap("cfg").replace("blue", "green") },
    });
    await kubectl(["scale", "deployment", "web", "-n", s.namespace, "--replicas=5"]);
    const { report } = await previewJson(s);
    expect(report.summary.drift).toBe(1);
    expect(report.drift?.resources.find((r) => r.status === "drifted")?.name).toBe("web");
    // Head still says two replicas: merging would also put the scaled Deployment back.
    expect(find(report, "Deployment", "web")?.action).toBe("change");
    expect(find(report, "ConfigMap", "cfg")?.changes).toContainEqual(
      expect.objectContaining({ path: "/data/color", desired: "green", live: "blue" }),
    );
  });

  it("shows no drift against base when the pull request moves the target to another cluster", async () => {
    const s = await pullRequest({
      target: { cluster: "old-cluster" },
      base: { "manifests/cfg.yaml": configMap("cfg") },
      head: {},
    });
    await git(s, "checkout", "-q", "change");
    const config = join(s.repoDir, ".github/undrift.yml");
    writeFileSync(config, readFileSync(config, "utf8").replace("cluster: old-cluster", "cluster: test"));
    await git(s, "commit", "-q", "-a", "--amend", "-m", "move to test");
    await git(s, "checkout", "-q", "main");
    const { report } = await previewJson(s);
    expect(report.cluster).toBe("test");
    expect(report.drift).toBeUndefined();
    expect(report.baseError).toBe("base binds the target to cluster old-cluster, not test");
    const text = await preview(s, "text");
    expect(text.stdout).toContain("drift now: unknown: base binds the target to cluster old-cluster, not test");
  });

  it("exits 0 when head renders to what runs", async () => {
    const s = await pullRequest({
      base: { "manifests/cfg.yaml": configMap("cfg") },
      head: { "manifests/cfg.yaml": `# a comment changes no object\n${configMap("cfg")}` },
    });
    const { code, report } = await previewJson(s);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ create: 0, change: 0, unchanged: 1, prune: 0, orphan: 0 });
  });

  it("names the file and line of a head that does not render, and exits 2", async () => {
    const s = await pullRequest({
      base: { "manifests/cfg.yaml": configMap("cfg") },
      head: { "manifests/cfg.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n" },
    });
    const result = await preview(s);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as PreviewReport;
    expect(report.status).toBe("render-failed");
    expect(report.error?.file).toBe("manifests/cfg.yaml");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^manifests\/cfg\.yaml:\d+/);
  });

  it("refuses a ref the repository does not have, in one line", async () => {
    const s = await pullRequest({ base: { "manifests/cfg.yaml": configMap("cfg") }, head: {} });
    const result = await preview(s, "json", { base: "no-such-branch", head: "change" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`--base: no commit "no-such-branch" in ${s.repoDir}`);
  });
});

describe("undrift preview --all", () => {
  it("previews every target of head's config, an array in JSON, and exits with the worst code", async () => {
    const s = await pullRequest({ base: { "manifests/a.yaml": configMap("a") }, head: {} });
    // Head adds a second target, whose one object merging would create.
    const second = `${s.target}-b`;
    await git(s, "checkout", "-q", "change");
    const targets = [
      { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace },
      { name: second, cluster: "test", path: "second", namespace: s.namespace },
    ];
    s.write({ ".github/undrift.yml": stringify({ targets }), "second/b.yaml": configMap("b") });
    await git(s, "add", "-A");
    await git(s, "commit", "-q", "-m", "second target");
    await git(s, "checkout", "-q", "main");

    const args = ["preview", "--repo", s.repoDir, "--base", "main", "--head", "change", "--all"];
    const json = await undrift([...args, "--kubeconfig", kubeconfigPath(), "-o", "json"]);
    expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 1, stderr: "" });
    const reports = JSON.parse(json.stdout) as PreviewReport[];
    expect(reports.map((r) => [r.target, r.summary.create, r.summary.change])).toEqual([
      [s.target, 0, 0],
      [second, 1, 0],
    ]);
    const text = await undrift([...args, "--kubeconfig", kubeconfigPath()]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(s.target);
    expect(text.stdout).toContain(second);
    // Without --all (or --target) head's two targets are named, and nothing is previewed.
    const neither = await undrift([...args.slice(0, -1), "--kubeconfig", kubeconfigPath()]);
    expect(neither.stderr).toBe(
      `--target is required: .github/undrift.yml has 2 targets (${s.target}, ${second}); name one, or --all for every one\n`,
    );
  });
});
