// A StatefulSet's PersistentVolumeClaims, as the real StatefulSet controller
// makes them: one per volumeClaimTemplate and replica (`data-db-0`), with the
// template's labels, so with the tracking label a Helm chart puts there, and
// with no ownerReference (the default retention policy keeps them when the set
// goes). They hold the set's data and belong to it, not to Git: the scan shows
// no orphan and `revert --prune --force-prune` deletes none of them.
import { afterEach, describe, expect, it } from "vitest";
import type { RevertResult } from "../../src/model/change-set.ts";
import { eventually, getJson, identities, revert, targetConfig } from "../helpers/controllers.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
// cleanup deletes the scenario's namespace, and with it the pods the controllers made.
afterEach(() => current?.cleanup());

const labels = "app.kubernetes.io/name: db, app.kubernetes.io/instance: {{ .Release.Name }}";
const statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {{ .Release.Name }}-db
  labels: {${labels}}
spec:
  serviceName: {{ .Release.Name }}-db
  replicas: 2
  # Both claims at once: their pods stay Pending, as no provisioner binds a volume here.
  podManagementPolicy: Parallel
  selector:
    matchLabels: {${labels}}
  template:
    metadata:
      labels: {${labels}}
    spec:
      containers:
        - name: db
          image: registry.example/db:1.0
          volumeMounts:
            - {name: data, mountPath: /data}
  volumeClaimTemplates:
    - metadata:
        name: data
        labels: {${labels}}
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests: {storage: 1Gi}
`;

describe("a StatefulSet's volume claims", () => {
  it("are not orphans though they carry the tracking label, and prune deletes none of them", async () => {
    current = scenario({ files: {} });
    const s = current;
    s.write({
      ".github/undrift.yml": targetConfig(s, {
        render: "helm",
        tracking: { selector: `app.kubernetes.io/instance=${s.target}` },
      }),
      "manifests/Chart.yaml": "apiVersion: v2\nname: db\nversion: 0.1.0\n",
      "manifests/templates/db.yaml": statefulSet,
    });
    await s.applyGit();
    const set = `${s.target}-db`;
    const claims = await eventually("the StatefulSet controller to make both claims", async () => {
      const items = (await getJson(["-n", s.namespace, "get", "persistentvolumeclaims"])).items;
      return items.length === 2 ? items : undefined;
    });
    expect(claims.map((c: { metadata: { name: string } }) => c.metadata.name).sort()).toEqual([
      `data-${set}-0`,
      `data-${set}-1`,
    ]);
    // The premise: the claims carry the tracking label and no owner says whose they are.
    for (const claim of claims) {
      expect(claim.metadata.labels["app.kubernetes.io/instance"]).toBe(s.target);
      expect(claim.metadata.ownerReferences).toBeUndefined();
    }

    const scan = await s.scanJson();
    expect(scan.report.summary).toEqual({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 });
    expect(scan.code).toBe(0);

    const result = await revert(s, ["--prune", "--force-prune", "-o", "json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const records = (JSON.parse(result.stdout) as RevertResult).resources;
    expect(records.map((r) => `${r.kind}/${r.name}:${r.action}`)).toEqual([`StatefulSet/${set}:unchanged`]);
    const after = (await getJson(["-n", s.namespace, "get", "persistentvolumeclaims"])).items;
    expect(identities(after)).toEqual(identities(claims));
  }, 150_000);
});
