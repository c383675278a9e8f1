// A mutating admission webhook (the test cluster's, in the role of Istio or
// Kyverno) adds a label, an annotation and a sidecar container to every
// Deployment in an opted-in namespace. No one in Git wrote them and no person
// did: they are not drift. A person's kubectl change to the same Deployment, in
// the same maps and lists, still is, with kubectl's manager named, and a revert
// takes back the person's fields while the webhook's stay.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { injectLabel } from "../../scripts/cluster/webhook.ts";
import { injected } from "../../scripts/cluster/webhook-server.ts";
import type { RevertResult } from "../../src/model/change-set.ts";
import { codify, getJson, type Obj, revert, rolledOut } from "../helpers/controllers.ts";
import { singleWebDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
// cleanup deletes the scenario's namespace, and with it the pods the controllers made.
afterEach(() => current?.cleanup());

async function meshed(): Promise<Scenario> {
  current = scenario({ files: { "manifests/web.yaml": singleWebDeployment } });
  const s = current;
  await kubectl(["create", "namespace", s.namespace]);
  await kubectl(["label", "namespace", s.namespace, `${injectLabel[0]}=${injectLabel[1]}`]);
  await s.applyGit();
  await rolledOut(s.namespace, "web");
  return s;
}

const injectedFields = (live: Obj) => ({
  label: live.metadata.labels[injected.label[0]],
  annotation: live.metadata.annotations[injected.annotation[0]],
  containers: live.spec.template.spec.containers.map((c: { name: string }) => c.name),
});

describe("fields a mutating webhook adds", () => {
  it("are not drift: the scan of a meshed Deployment is in sync", async () => {
    const s = await meshed();
    const live = await getJson(["-n", s.namespace, "get", "deployment", "web"]);
    expect(injectedFields(live)).toEqual({
      label: injected.label[1],
      annotation: injected.annotation[1],
      containers: ["web", injected.sidecar.name],
    });

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);
  }, 150_000);

  it("leave a person's kubectl change beside them drift, and a revert removes only the person's", async () => {
    const s = await meshed();
    await kubectl(["-n", s.namespace, "annotate", "deployment/web", "team=payments"]);
    await kubectl(["-n", s.namespace, "set", "env", "deployment/web", "-c", "web", "DEBUG=1"]);

    const scan = await s.scanJson();
    expect(scan.code).toBe(1);
    const web = scan.report.resources.find((r) => r.kind === "Deployment");
    expect(web?.status).toBe("drifted");
    expect(web?.changes?.map((c) => [c.path, c.manager])).toEqual([
      ["/metadata/annotations/team", "kubectl-annotate"],
      ["/spec/template/spec/containers/0/env/0", "kubectl-set"],
    ]);

    const result = await revert(s, ["-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [record] = (JSON.parse(result.stdout) as RevertResult).resources;
    expect(record).toMatchObject({ kind: "Deployment", action: "configured" });
    expect(record?.takenFrom?.sort()).toEqual(["kubectl-annotate", "kubectl-set"]);

    const live = await getJson(["-n", s.namespace, "get", "deployment", "web"]);
    expect(live.metadata.annotations.team).toBeUndefined();
    expect(live.spec.template.spec.containers[0].env).toBeUndefined();
    expect(injectedFields(live)).toEqual({
      label: injected.label[1],
      annotation: injected.annotation[1],
      containers: ["web", injected.sidecar.name],
    });
    await rolledOut(s.namespace, "web");
    const again = await s.scanJson();
    expect(again.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(again.code).toBe(0);
  }, 150_000);

  it("are left out of codify, which writes only the person's change into Git", async () => {
    const s = await meshed();
    await kubectl(["-n", s.namespace, "annotate", "deployment/web", "team=payments"]);

    const result = await codify(s);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const file = readFileSync(join(s.repoDir, "manifests/web.yaml"), "utf8");
    expect(file).toBe(
      singleWebDeployment.replace("  name: web\n", "  name: web\n  annotations:\n    team: payments\n"),
    );
    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);
  }, 150_000);
});
