// A revert's object written again between the revert's read and its apply
// (src/remediate/revert/apply-desired.ts), against the real API server and its
// Deployment controller: the revert takes people's fields over with a patch
// that holds only if the object is as read. A write since then to the status
// alone (the controller writes it all through the rollout a hand edit starts)
// changes nothing the revert judged: it reads the object again and goes on,
// the hand-made annotation removed. A person's write since then is refused,
// named as changed since the scan, and the object keeps what the person wrote.
// Before, the status write was refused too: under load, reverts of Deployments
// in the suite failed with "changed since the scan". So was the Deployment
// controller's bump of its revision annotation, which follows a `kubectl set
// image` by a moment: a revert right after one failed so in CI. And a
// rollout's controller writes its status several times a second for as long
// as pods take to become ready: three tries lost in a row to such writes once
// failed a full CI run, so the tries back off and go on for seconds.
import { afterEach, describe, expect, it } from "vitest";
import { loadJq } from "../../src/drift/jq.ts";
import { discover } from "../../src/live/discovery.ts";
import { getObject } from "../../src/live/get-object.ts";
import { KubeClient, type KubeRequest } from "../../src/live/kube-client.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import type { KubeObject } from "../../src/model/types.ts";
import { applyStage } from "../../src/plan/revert/apply-stage.ts";
import { applyDesired, takeoverTries } from "../../src/remediate/revert/apply-desired.ts";
import { client, contexts, kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";

const namespaces: string[] = [];
afterEach(async () => {
  await Promise.all(
    namespaces.splice(0).map((ns) => kubectl(["delete", "namespace", ns, "--wait=false"]).catch(() => undefined)),
  );
});

const desired = (namespace: string): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
    },
  },
});

/** A Deployment applied by undrift, then annotated by a person; the revert's read of it. */
async function handAnnotated(): Promise<{ namespace: string; read: KubeObject }> {
  const namespace = uniqueName("since-read");
  namespaces.push(namespace);
  await kubectl(["create", "namespace", namespace]);
  await kubectl(
    ["-n", namespace, "apply", "--server-side", "--field-manager=undrift", "-f", "-"],
    JSON.stringify(desired(namespace)),
  );
  // The controller's first write, so that the read holds it as a scan's would.
  await kubectl([
    "-n",
    namespace,
    "wait",
    "--for=jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}=1",
    "deploy/web",
    "--timeout=60s",
  ]);
  await kubectl(["-n", namespace, "annotate", "deploy/web", "oncall=alice"]);
  const index = await discover(client());
  const read = await getObject({
    client: client(),
    resource: index.find("apps/v1", "Deployment")!,
    object: desired(namespace),
  });
  return { namespace, read: read! };
}

async function revertFrom(namespace: string, read: KubeObject, through: KubeClient = client()) {
  const index = await discover(client());
  const object = desired(namespace);
  return applyDesired({
    client: through,
    resource: index.find("apps/v1", "Deployment")!,
    planned: {
      desired: { object, source: { file: "web.yaml", document: 0 } },
      live: read,
      status: "drifted",
      changes: ["/metadata/annotations/oncall"],
      stage: applyStage(object),
    },
    fieldManager: "undrift",
    force: true,
    isHuman: (manager) => manager.startsWith("kubectl"),
    dryRun: false,
    time: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    ignoreRules: [],
    jq: await loadJq(),
  });
}

/**
 * The admin's client, but each of the first `writes` takeover patches (the managedFields rewrite) is preceded by a
 * status write to the object, as a rollout's controller makes them: each try loses to a write since its read.
 */
class StatusWrittenFirst extends KubeClient {
  written = 0;
  readonly writes: number;
  constructor(writes: number) {
    super(loadKubeconfig({ kubeconfig: kubeconfigPath(), context: contexts.admin }));
    this.writes = writes;
  }
  override async send<T = unknown>(req: KubeRequest): Promise<T> {
    const body = req.body as { metadata?: { managedFields?: unknown } } | undefined;
    if (req.method === "PATCH" && body?.metadata?.managedFields && this.written < this.writes) {
      this.written++;
      await super.send({
        method: "PATCH",
        path: `${req.path}/status`,
        query: { fieldManager: "kube-controller-manager" },
        body: { status: { collisionCount: this.written } },
        contentType: "application/merge-patch+json",
      });
    }
    return super.send<T>(req);
  }
}

const annotations = async (namespace: string) =>
  JSON.parse(await kubectl(["-n", namespace, "get", "deploy/web", "-o", "json"])).metadata.annotations ?? {};

describe("a revert whose object was written after its read", () => {
  it("goes on when only its status was written: the person's annotation is removed", async () => {
    const { namespace, read } = await handAnnotated();
    // A status write after the read, as the controller makes them; the controller may add its own meanwhile.
    await kubectl([
      "-n",
      namespace,
      "patch",
      "deploy/web",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"collisionCount":1}}',
    ]);

    const { record } = await revertFrom(namespace, read);
    expect(record).toMatchObject({ action: "configured", takenFrom: ["kubectl-annotate"] });
    expect(record.reason).toBeUndefined();
    expect((await annotations(namespace)).oncall).toBeUndefined();
  });

  it("goes on when a controller wrote only an annotation of its own that Git does not declare", async () => {
    const { namespace, read } = await handAnnotated();
    // The Deployment controller's own such write, its revision annotation, is set back at once when it is not what
    // the controller has in mind, so it cannot be made to stay here: another controller's annotation stands for it.
    await kubectl([
      "-n",
      namespace,
      "annotate",
      "--field-manager=config-syncer",
      "deploy/web",
      "config-syncer.example.com/observed=7",
    ]);

    const { record } = await revertFrom(namespace, read);
    expect(record).toMatchObject({ action: "configured", takenFrom: ["kubectl-annotate"] });
    const after = await annotations(namespace);
    expect(after.oncall).toBeUndefined();
    expect(after["config-syncer.example.com/observed"]).toBe("7");
  });

  it("goes on through more status writes than three tries, each landing between a read and the takeover", async () => {
    const { namespace, read } = await handAnnotated();
    const rollout = new StatusWrittenFirst(5);

    const { record } = await revertFrom(namespace, read, rollout);
    expect(rollout.written).toBe(5);
    expect(record).toMatchObject({ action: "configured", takenFrom: ["kubectl-annotate"] });
    expect((await annotations(namespace)).oncall).toBeUndefined();
  });

  it("gives up on an object its controllers never stop writing, says so, and applies nothing", async () => {
    const { namespace, read } = await handAnnotated();
    const rollout = new StatusWrittenFirst(Number.POSITIVE_INFINITY);

    const { record } = await revertFrom(namespace, read, rollout);
    expect(rollout.written).toBe(takeoverTries);
    expect(record).toMatchObject({
      action: "failed",
      reason: `still being written by its controllers after ${takeoverTries} tries to take it over, so not applied; run revert again`,
    });
    expect((await annotations(namespace)).oncall).toBe("alice");
  });

  it("refuses when a person wrote it, and leaves what they wrote", async () => {
    const { namespace, read } = await handAnnotated();
    await kubectl(["-n", namespace, "annotate", "--overwrite", "deploy/web", "oncall=bob"]);

    const { record } = await revertFrom(namespace, read);
    expect(record).toMatchObject({
      action: "failed",
      reason:
        "changed since the scan (/metadata/annotations/oncall), so not applied; run revert again to judge it anew",
    });
    expect((await annotations(namespace)).oncall).toBe("bob");
  });
});
