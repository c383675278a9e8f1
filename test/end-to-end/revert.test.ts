// undrift revert against a real API server: hand edits are restored and hand-added
// fields removed (people's managers taken over, as Flux does), controllers' fields
// stay, in-sync objects are not written, conflicts name their owner, and a dry run
// yields the same records while changing nothing.
import { afterEach, describe, expect, it } from "vitest";
import type { ObjectRecord, RevertResult } from "../../src/model/change-set.ts";
import { revertResultSchema } from "../../src/report/revert/revert-json-schema.ts";
import { clusterWhereOf, kubeconfigPath } from "../helpers/cluster.ts";
import { rolledOut } from "../helpers/controllers.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const deployment = `# The web tier.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          env:
            - name: LOG_LEVEL
              value: info
`;

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  LOG_LEVEL: info
  FEATURE_X: enabled
`;

let current: Scenario | undefined;
afterEach(() => current?.cleanup());

async function applied(target?: Record<string, unknown>): Promise<Scenario> {
  current = scenario({
    files: { "manifests/web.yaml": deployment, "manifests/settings.yaml": configMap },
    ...(target ? { target } : {}),
  });
  await current.applyGit();
  return current;
}

async function revert(s: Scenario, extra: string[] = []): Promise<{ code: number; result: RevertResult }> {
  const run = await undrift([
    "revert",
    "--repo",
    s.repoDir,
    "--target",
    s.target,
    "--kubeconfig",
    kubeconfigPath(),
    "--output",
    "json",
    ...extra,
  ]);
  if (run.code === 2) throw new Error(`revert failed: ${run.stderr}`);
  const json = JSON.parse(run.stdout);
  // Every real result is what schema/revert.schema.json says, with no field it leaves undescribed.
  expect(revertResultSchema.parse(json)).toEqual(json);
  return { code: run.code, result: json as RevertResult };
}

function record(result: RevertResult, kind: string, name: string): ObjectRecord {
  const found = result.resources.find((r) => r.kind === kind && r.name === name);
  if (!found) throw new Error(`${kind}/${name} not in result: ${JSON.stringify(result.resources)}`);
  return found;
}

type ManagedFieldsEntry = { manager: string; operation: string; subresource?: string; time?: string };

/** What a write by undrift would move: the spec's generation and undrift's own managedFields entry. */
function writtenByUndrift(object: { metadata: { generation: number; managedFields: ManagedFieldsEntry[] } }) {
  return {
    generation: object.metadata.generation,
    undrift: object.metadata.managedFields.filter((e) => e.manager === "undrift" && !e.subresource),
  };
}

// The Deployment controller writes a Deployment for as long as a rollout that a hand edit started runs: its
// status, which revert reads again past (revert-changed-since-read.test.ts), and its revision annotation, a write
// to metadata that revert refuses, by design, as made since its own read ("changed since the scan, so not
// applied; run revert again"). A test that means to revert the hand edit waits for that rollout first.
const settled = (s: Scenario) => rolledOut(s.namespace, "web");

async function get(s: Scenario, what: string) {
  return JSON.parse(await kubectl(["-n", s.namespace, "get", what, "-o", "json", "--show-managed-fields"]));
}

describe("undrift revert", () => {
  it("restores values changed by hand, after which the scan is in sync", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.28"]);
    await kubectl(["-n", s.namespace, "patch", "configmap/settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    await settled(s);
    expect((await s.scanJson()).code).toBe(1);

    const { code, result } = await revert(s);
    expect(code).toBe(0);
    expect(record(result, "Deployment", "web")).toMatchObject({
      action: "configured",
      changes: ["/spec/template/spec/containers/0/image"],
      takenFrom: ["kubectl-set"],
    });
    expect(record(result, "ConfigMap", "settings")).toMatchObject({
      action: "configured",
      takenFrom: ["kubectl-patch"],
    });

    expect((await get(s, "deploy/web")).spec.template.spec.containers[0].image).toBe("nginx:1.27");
    expect((await get(s, "configmap/settings")).data).toEqual({ LOG_LEVEL: "info", FEATURE_X: "enabled" });
    expect((await s.scanJson()).code).toBe(0);
  });

  it("removes an annotation, an env var and a scale made by hand", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "annotate", "deploy/web", "oncall=alice"]);
    await kubectl(["-n", s.namespace, "set", "env", "deploy/web", "DEBUG=1"]);
    await kubectl(["-n", s.namespace, "scale", "deploy/web", "--replicas=5"]);
    await settled(s);

    const { code, result } = await revert(s);
    // A refusal names its object and why: the message says what went wrong, had it gone wrong.
    expect(code, JSON.stringify(result.resources)).toBe(0);
    expect(record(result, "Deployment", "web").takenFrom?.sort()).toEqual([
      "kubectl (scale)",
      "kubectl-annotate",
      "kubectl-set",
    ]);
    const web = await get(s, "deploy/web");
    expect(web.metadata.annotations?.oncall).toBeUndefined();
    expect(web.spec.template.spec.containers[0].env).toEqual([{ name: "LOG_LEVEL", value: "info" }]);
    expect(web.spec.replicas).toBe(2);
    expect((await s.scanJson()).code).toBe(0);
  });

  it("leaves a controller's annotation on an object it reverts", async () => {
    const s = await applied();
    await kubectl([
      "-n",
      s.namespace,
      "annotate",
      "deploy/web",
      "cert-manager.io/issuer=letsencrypt",
      "--field-manager=cert-manager",
    ]);
    await kubectl(["-n", s.namespace, "annotate", "deploy/web", "oncall=alice"]);

    const { code, result } = await revert(s);
    expect(code).toBe(0);
    expect(record(result, "Deployment", "web").action).toBe("configured");
    const web = await get(s, "deploy/web");
    expect(web.metadata.annotations).toMatchObject({ "cert-manager.io/issuer": "letsencrypt" });
    expect(web.metadata.annotations.oncall).toBeUndefined();
    const managers = web.metadata.managedFields.map((e: { manager: string }) => e.manager);
    expect(managers).toContain("cert-manager");
    expect(managers.filter((m: string) => m.startsWith("kubectl"))).toEqual([]);
  });

  it("does not write objects that are in sync", async () => {
    const s = await applied();
    const before = (await get(s, "configmap/settings")).metadata.resourceVersion;
    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.28"]);
    await settled(s);

    const { code, result } = await revert(s);
    expect(code).toBe(0);
    expect(record(result, "ConfigMap", "settings")).toMatchObject({
      action: "unchanged",
      health: { status: "healthy" },
    });
    expect((await get(s, "configmap/settings")).metadata.resourceVersion).toBe(before);

    // The deployment controller keeps writing the revert's rollout into status, so the Deployment's
    // resourceVersion moves on its own; what undrift must not move is the spec (generation) or its own fields.
    const webBefore = writtenByUndrift(await get(s, "deploy/web"));
    const again = await revert(s);
    expect(again.result.summary).toMatchObject({ unchanged: 2, configured: 0, created: 0 });
    expect(webBefore.undrift).toHaveLength(1);
    expect(writtenByUndrift(await get(s, "deploy/web"))).toEqual(webBefore);
    expect((await get(s, "configmap/settings")).metadata.resourceVersion).toBe(before);
  });

  it("re-creates an object deleted by hand", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "delete", "configmap/settings"]);
    const { code, result } = await revert(s);
    expect(code).toBe(0);
    expect(record(result, "ConfigMap", "settings")).toMatchObject({ action: "created", health: { status: "healthy" } });
    const settings = await get(s, "configmap/settings");
    expect(settings.metadata.labels).toEqual({ "undrift.dev/target": s.target });
    expect(settings.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(["undrift"]);
  });

  it("reports a conflict with a controller's field, naming the manager, and takes it with force", async () => {
    const s = await applied();
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "deploy/web",
      "--field-manager=hpa-controller",
      "-p",
      '{"spec":{"replicas":5}}',
    ]);

    const { code, result } = await revert(s);
    expect(code).toBe(1);
    expect(record(result, "Deployment", "web")).toMatchObject({
      action: "failed",
      reason: 'conflict: a field owned by "hpa-controller"; force: true in the target takes them',
      conflicts: [{ field: ".spec.replicas", manager: "hpa-controller" }],
    });
    expect((await get(s, "deploy/web")).spec.replicas).toBe(5);

    const dry = await revert(s, ["--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.result.resources).toEqual(result.resources.map(withoutHealth));

    s.write({
      ".github/undrift.yml": `targets:\n  - {name: ${s.target}, cluster: test, path: manifests, namespace: ${s.namespace}, force: true}\n`,
    });
    const forced = await revert(s);
    expect(forced.code).toBe(0);
    expect(record(forced.result, "Deployment", "web").action).toBe("configured");
    expect((await get(s, "deploy/web")).spec.replicas).toBe(2);
  });

  it("reports health once without failing on a Deployment that cannot roll out, and times out when asked to wait", async () => {
    const s = await applied({ timeout: "2s" });
    // Git's next revision has pods that run but never pass readiness (kwok keeps pods annotated so unready).
    s.write({
      "manifests/web.yaml": deployment.replace(
        "      labels: {app: web}\n",
        '      labels: {app: web}\n      annotations: {undrift-test/unready: "true"}\n',
      ),
    });
    const once = await revert(s);
    expect(once.code).toBe(0);
    expect(record(once.result, "Deployment", "web").health).toEqual({
      status: "not-ready",
      message: expect.stringMatching(
        /^(the controller has not observed generation \d+ yet \(observed \d+\)|\d+ of \d+ (replicas updated|updated replicas available|replicas ready)|\d+ old replicas pending termination)$/,
      ),
      waited: false,
    });

    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.29"]);
    const waited = await revert(s, ["--wait"]);
    expect(waited.code).toBe(1);
    // The wait ended at the target's deadline (not ready in time), with the reason of its last read.
    expect(record(waited.result, "Deployment", "web").health).toMatchObject({
      status: "timed-out",
      message: expect.stringMatching(/^not ready in time: /),
      waited: true,
    });
    expect(record(waited.result, "ConfigMap", "settings").health).toMatchObject({ status: "healthy" });
    // What the user finds in the cluster: the new revision's pods run, and none is Ready. kwok reports a
    // new pod's conditions a moment after it is scheduled, so the test reads them until it has.
    const readiness = async () => {
      const pods = JSON.parse(await kubectl(["-n", s.namespace, "get", "pods", "-l", "app=web", "-o", "json"])).items;
      return pods
        .filter(
          (pod: { metadata: { annotations?: Record<string, string> } }) =>
            pod.metadata.annotations?.["undrift-test/unready"] === "true",
        )
        .map(
          (pod: { status: { conditions?: Array<{ type: string; status: string }> } }) =>
            pod.status.conditions?.find((c) => c.type === "Ready")?.status ?? "not reported",
        );
    };
    await expect
      .poll(readiness, { timeout: 15_000, interval: 250 })
      .toSatisfy((ready: string[]) => ready.length > 0 && ready.every((status) => status === "False"));
  });
});

describe("undrift revert --dry-run", () => {
  it("yields the records of the real run and changes nothing", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "set", "image", "deploy/web", "web=nginx:1.28"]);
    await kubectl(["-n", s.namespace, "set", "env", "deploy/web", "DEBUG=1"]);
    await kubectl(["-n", s.namespace, "delete", "configmap/settings"]);
    await settled(s);
    // The deployment controller writes the rollout's status meanwhile, so compare what a write would move.
    const before = writtenByUndrift(await get(s, "deploy/web"));

    const dry = await revert(s, ["--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.result.dryRun).toBe(true);
    expect(writtenByUndrift(await get(s, "deploy/web"))).toEqual(before);
    await expect(kubectl(["-n", s.namespace, "get", "configmap/settings"])).rejects.toThrow(/NotFound/);

    const real = await revert(s);
    expect(dry.result.resources).toEqual(real.result.resources.map(withoutHealth));
    expect(dry.result.summary).toEqual(real.result.summary);
  });

  it("prints what it would do as text", async () => {
    const s = await applied();
    await kubectl(["-n", s.namespace, "patch", "configmap/settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const run = await undrift([
      "revert",
      "--repo",
      s.repoDir,
      "--target",
      s.target,
      "--kubeconfig",
      kubeconfigPath(),
      "--dry-run",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `${s.target} (dry run, nothing changed): 1 configured, 1 unchanged${clusterWhereOf()}
configured  v1 ConfigMap ${s.namespace}/settings
            fields: /data/LOG_LEVEL
            taken over from: kubectl-patch
unchanged   apps/v1 Deployment ${s.namespace}/web
`,
    );
  });
});

describe("undrift revert and Secrets", () => {
  it("restores a Secret changed by hand without printing its value, in text or JSON", async () => {
    current = scenario({
      files: {
        "manifests/secret.yaml": `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: correct-horse-battery\n`,
      },
    });
    const s = current;
    await s.applyGit();
    const handValue = Buffer.from("hand-typed-password").toString("base64");
    await kubectl(["-n", s.namespace, "patch", "secret/db", "-p", JSON.stringify({ data: { password: handValue } })]);

    const args = ["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    const outputs = [
      await undrift([...args, "--dry-run"]),
      await undrift([...args, "--dry-run", "--output", "json"]),
      await undrift(args),
    ];
    for (const run of outputs) {
      expect(run.code).toBe(0);
      for (const secret of ["correct-horse-battery", "hand-typed-password", handValue]) {
        expect(run.stdout + run.stderr).not.toContain(secret);
      }
    }
    expect(outputs[2]!.stdout).toContain(`configured  v1 Secret ${s.namespace}/db`);
    const secret = await get(s, "secret/db");
    expect(Buffer.from(secret.data.password, "base64").toString()).toBe("correct-horse-battery");
  });
});

describe("undrift revert: usage", () => {
  it("refuses --force-prune without --prune, and an unknown propagation, in one line", async () => {
    const base = ["revert", "--repo", "/nonexistent", "--target", "x"];
    const force = await undrift([...base, "--force-prune"]);
    expect(force).toMatchObject({ code: 2, stdout: "" });
    expect(force.stderr).toBe("--force-prune lifts prune guards and needs --prune\n");
    const propagation = await undrift([...base, "--prune", "--propagation", "sideways"]);
    expect(propagation.stderr).toBe('--propagation: expected one of background, foreground, orphan, got "sideways"\n');
  });
});

function withoutHealth(record: ObjectRecord): ObjectRecord {
  const { health: _health, ...rest } = record;
  return rest;
}
