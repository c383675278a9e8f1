// An object the cluster is deleting (a deletionTimestamp, held by a finalizer)
// is never written into Git: not added as an orphan, not its drifted fields;
// codify says why, per object. The stage runs in-process on a small plain
// repository, with the pairings a scan would hand it.
import { realpath } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../../src/config/target-schema.ts";
import { trackingLabel } from "../../../../src/config/tracking-label.ts";
import { finalizeDesired } from "../../../../src/desired/finalize-desired.ts";
import { renderTarget } from "../../../../src/desired/render-target.ts";
import type { Pairing } from "../../../../src/drift/build-report.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { codifyScan } from "../../../../src/stages/codify/codify-target.ts";
import { tempRepo } from "../../desired/temp-repo.ts";
import { policyFor } from "../../drift/drift-fixtures.ts";

const target = targetSchema.parse({ name: "shop", cluster: "prod", path: "manifests", namespace: "shop" });
const deleting = { deletionTimestamp: "2026-12-06T05:00:00Z", finalizers: ["example.com/hold"] };

const configMap = (name: string, data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop", labels: { "undrift.dev/target": "shop" }, ...meta },
  data,
});

async function codify(pairingsOf: (desired: KubeObject) => Pairing[]) {
  const repoDir = await realpath(
    await tempRepo({
      "manifests/config.yaml":
        "# settings\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: info\n",
    }),
  );
  const rendered = await renderTarget({ repoDir, target });
  const desired = finalizeDesired({
    objects: rendered.objects,
    namespace: target.namespace,
    trackingLabel: trackingLabel(target),
    scopeOf: () => "Namespaced",
  });
  const pairings = pairingsOf(desired[0]!.object).map((p) =>
    p.live && !p.comparison ? p : { ...p, desired: desired[0]! },
  );
  return codifyScan({
    repoDir,
    target,
    desired,
    pairings,
    problems: [],
    policy: await policyFor(),
    renderer: "plain",
    scopeOf: () => "Namespaced",
  });
}

/** The desired object paired with a live one whose LOG_LEVEL a person changed to debug. */
function drifted(desired: KubeObject, meta: Record<string, unknown> = {}): Pairing {
  const live = configMap("app", { LOG_LEVEL: "debug" }, meta);
  const change = { path: "/data/LOG_LEVEL", desired: "info", live: "debug", manager: "kubectl-patch" };
  return {
    live,
    comparison: { changes: [change], needsDryRun: false, needsDefaults: false, live, wouldBe: desired },
  };
}

describe("codify and objects being deleted", () => {
  it("codifies the drifted field and the orphan of objects that are not being deleted", async () => {
    const result = await codify((desired) => [drifted(desired), { live: configMap("stray", { owner: "alice" }) }]);
    expect(result.notCodified).toEqual([]);
    expect(result.files.map((f) => f.file)).toEqual(["manifests/config.yaml", "manifests/configmap-stray.yaml"]);
  });

  it("neither adds an orphan being deleted nor writes the drifted fields of an object being deleted, and says why", async () => {
    const result = await codify((desired) => [
      drifted(desired, deleting),
      { live: configMap("stray", { owner: "alice" }, deleting) },
    ]);
    expect(result.files).toEqual([]);
    expect(result.codified).toEqual([]);
    const why =
      "being deleted (deletionTimestamp 2026-12-06T05:00:00Z, held by finalizer example.com/hold); codify waits until it is gone";
    expect(result.notCodified).toEqual([
      { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "app", reason: why },
      { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "stray", reason: why },
    ]);
  });
});
