// A real `helm install` of charts/undrift into the production-like test cluster:
// its pods become Ready (kwok plays the kubelet), an undrift helm target of the
// same chart with the same values scans the release in sync, and the RBAC tiers
// hold: with the `read` tier's ServiceAccount a revert fails naming the verb it
// lacks, with the `apply` tier's it succeeds. `helm uninstall` leaves nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { deleteNamespaces, getJson, type Obj, rolledOut } from "../helpers/controllers.ts";
import { chartDir, helm, helmComplaints, removeHelmHome, valuesFile } from "../helpers/helm.ts";
import { giveOwnNode } from "../helpers/own-node.ts";
import { undrift } from "../helpers/run-cli.ts";

const namespace = uniqueName("chart-install");
const release = uniqueName("ud");
const fullname = `${release}-undrift`;
const sa = (worker: string) => `${fullname}-worker-${worker}`;
const values = {
  redis: { url: "redis://redis.undrift.svc:6379" },
  clusters: {
    "here-read": { inCluster: true, repositories: ["acme/gitops"] },
    "here-apply": { inCluster: true, repositories: ["acme/gitops"] },
  },
  workers: [
    { name: "reader", clusters: ["here-read"], rbac: { tier: "read" } },
    { name: "applier", clusters: ["here-apply"], rbac: { tier: "apply" } },
  ],
};
const repoDir = mkdtempSync(join(tmpdir(), "undrift-chart-repo-"));
const scratch = mkdtempSync(join(tmpdir(), "undrift-chart-tokens-"));
let installed = false;

beforeAll(async () => {
  await kubectl(["create", "namespace", namespace]);
  await giveOwnNode(namespace);
  // The GitHub App's Secret, as the README has people make it; values that GitHub would refuse, as kwok runs no process.
  await kubectl([
    ...["-n", namespace, "create", "secret", "generic", "undrift-github"],
    ...["--from-literal=APP_ID=1", "--from-literal=PRIVATE_KEY=not-a-key", "--from-literal=WEBHOOK_SECRET=test"],
  ]);
  // The repository a platform team keeps: the chart and its values, as an undrift helm target.
  await cp(chartDir, join(repoDir, "deploy/undrift"), { recursive: true });
  writeFileSync(join(repoDir, "deploy/values-prod.yaml"), stringify(values));
  mkdirSync(join(repoDir, ".github"));
  writeFileSync(
    join(repoDir, ".github/undrift.yml"),
    stringify({
      targets: [
        {
          name: release,
          cluster: "test",
          path: "deploy/undrift",
          namespace,
          render: "helm",
          helm: { releaseName: release, valuesFiles: ["../values-prod.yaml"] },
          // Helm's own label: the release's objects carry it, its ReplicaSets and Pods are their controllers'.
          tracking: { selector: `app.kubernetes.io/instance=${release}` },
        },
      ],
    }),
  );
}, 120_000);

afterAll(async () => {
  if (installed) await helm(["uninstall", release, "-n", namespace, "--wait", "--timeout", "2m"]);
  await deleteNamespaces([namespace]);
  rmSync(repoDir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
  removeHelmHome();
});

/** A kubeconfig for the worker's ServiceAccount: a token from the TokenRequest API, the test cluster's server and CA. */
async function serviceAccountKubeconfig(worker: string): Promise<string> {
  const token = (await kubectl(["-n", namespace, "create", "token", sa(worker), "--duration=10m"])).trim();
  const admin = parse(await kubectl(["config", "view", "--raw", "--minify"])) as Obj;
  const file = join(scratch, `${worker}.kubeconfig`);
  writeFileSync(
    file,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "test", cluster: admin.clusters[0].cluster }],
      users: [{ name: sa(worker), user: { token } }],
      contexts: [{ name: "test", context: { cluster: "test", user: sa(worker) } }],
      "current-context": "test",
    }),
    { mode: 0o600 },
  );
  return file;
}

const canI = async (worker: string, verb: string, resource: string) =>
  (
    await kubectl([
      "auth",
      "can-i",
      verb,
      resource,
      "-n",
      namespace,
      `--as=system:serviceaccount:${namespace}:${sa(worker)}`,
    ]).catch((error: { stdout?: string }) => error.stdout ?? "")
  ).trim();

const scan = () => undrift(["scan", "--repo", repoDir, "--target", release, "--kubeconfig", kubeconfigPath()]);
const revert = (kubeconfig: string) =>
  undrift(["revert", "--repo", repoDir, "--target", release, "--kubeconfig", kubeconfig]);

describe("helm install charts/undrift", () => {
  it("installs; every pod becomes Ready; undrift scans the release in sync", async () => {
    const install = await helm([
      ...["install", release, chartDir, "-n", namespace, "-f", valuesFile(values)],
      ...["--wait", "--timeout", "3m"],
    ]);
    installed = install.code === 0;
    expect(helmComplaints(install.stderr)).toBe("");
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("STATUS: deployed");
    for (const name of [`${fullname}-web`, sa("reader"), sa("applier")]) await rolledOut(namespace, name);
    const pods = (await getJson(["-n", namespace, "get", "pods", "-l", `app.kubernetes.io/instance=${release}`]))
      .items as Obj[];
    expect(pods).toHaveLength(4);
    for (const pod of pods)
      expect(pod.status.conditions).toContainEqual(expect.objectContaining({ type: "Ready", status: "True" }));

    const result = await scan();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/in sync/);
  }, 300_000);

  it("each worker's ServiceAccount has its tier's verbs and no Secrets", async () => {
    expect(installed).toBe(true);
    expect(await canI("reader", "list", "configmaps")).toBe("yes");
    expect(await canI("reader", "patch", "configmaps")).toBe("no");
    expect(await canI("reader", "get", "secrets")).toBe("no");
    expect(await canI("applier", "patch", "deployments.apps")).toBe("yes");
    expect(await canI("applier", "create", "configmaps")).toBe("yes");
    expect(await canI("applier", "delete", "configmaps")).toBe("no");
    expect(await canI("applier", "get", "secrets")).toBe("no");
  });

  it("a revert as the read tier fails naming the verb it lacks; as the apply tier it restores Git", async () => {
    expect(installed).toBe(true);
    const registry = `${fullname}-clusters`;
    await kubectl([
      "-n",
      namespace,
      "patch",
      "configmap",
      registry,
      "-p",
      '{"data":{"clusters.yaml":"clusters: {}\\n"}}',
    ]);
    expect((await scan()).code).toBe(1);

    const denied = await revert(await serviceAccountKubeconfig("reader"));
    expect(denied.code).not.toBe(0);
    // One line per object: the refused one says which verb on which resource its identity lacks.
    const failed = denied.stdout.split("\n").filter((line) => line.startsWith("failed"));
    expect(failed).toEqual([
      `failed      v1 ConfigMap ${namespace}/${registry}: taking over hand-made fields refused: 403 Forbidden: User "system:serviceaccount:${namespace}:${sa("reader")}" cannot patch resource "configmaps" in API group "" in the namespace "${namespace}"`,
    ]);

    const applied = await revert(await serviceAccountKubeconfig("applier"));
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    const after = await scan();
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/in sync/);
  }, 120_000);

  it("helm uninstall removes every object, the cluster-wide RBAC included", async () => {
    expect(installed).toBe(true);
    const result = await helm(["uninstall", release, "-n", namespace, "--wait", "--timeout", "2m"]);
    expect(result.code).toBe(0);
    installed = false;
    const left = await kubectl([
      ...[
        "get",
        "deployments,services,configmaps,serviceaccounts,poddisruptionbudgets,clusterroles,clusterrolebindings",
      ],
      ...["-A", "-l", `app.kubernetes.io/instance=${release}`, "-o", "name"],
    ]);
    expect(left.trim()).toBe("");
  }, 180_000);
});
