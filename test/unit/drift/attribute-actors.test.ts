import { describe, expect, it } from "vitest";
import { actorFor, agentFitsManager, attributeActors } from "../../../src/drift/attribute-actors.ts";
import type { Change, DriftReport } from "../../../src/model/types.ts";
import type { WriteRecord } from "../../../src/model/write-record.ts";

const web = { group: "apps", kind: "Deployment", namespace: "shop", name: "web" };
const record = (at: string, extra: Partial<WriteRecord> = {}): WriteRecord => ({
  cluster: "prod",
  object: web,
  verb: "patch",
  username: "alice",
  groups: ["sre"],
  at,
  via: "audit",
  ...extra,
});
const patched: Change = { path: "/spec/replicas", manager: "kubectl-patch", changedAt: "2026-12-02T10:02:03Z" };

describe("agentFitsManager", () => {
  it.each([
    ["kubectl/v1.34.1 (linux/amd64) kubernetes/abc", "kubectl-patch", true],
    ["kubectl/v1.34.1 (linux/amd64) kubernetes/abc", "kubectl-edit", true],
    ["kubectl/v1.34.1 (linux/amd64) kubernetes/abc", "kubectl-client-side-apply", true],
    ["kubectl/v1.34.1 (linux/amd64) kubernetes/abc", "kubectl", true],
    ["Helm/3.17.0", "helm", true],
    [
      "kube-controller-manager/v1.34.1 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:deployment-controller",
      "kube-controller-manager",
      true,
    ],
    ["argocd-controller/v2.13", "argocd-controller", true],
    ["Helm/3.17.0", "kubectl-patch", false],
    ["kubectl/v1.34.1", "helm", false],
    ["kustomize-controller/v1.4", "kubectl-edit", false],
    ["Mozilla/5.0", "kubectl-edit", false],
  ])("%s fits %s: %s", (agent, manager, fits) => {
    expect(agentFitsManager(agent, manager)).toBe(fits);
  });
});

describe("actorFor", () => {
  const replicas = ["/spec/replicas"];
  const alice = record("2026-12-02T10:02:03.412Z", {
    userAgent: "kubectl/v1.34.1",
    sourceIP: "10.1.2.3",
    fields: replicas,
  });
  it.each<[string, Change, WriteRecord[], ReturnType<typeof actorFor>]>([
    [
      "a kubectl patch by alice, from the audit log",
      patched,
      [alice],
      {
        username: "alice",
        groups: ["sre"],
        userAgent: "kubectl/v1.34.1",
        sourceIP: "10.1.2.3",
        at: "2026-12-02T10:02:03.412Z",
        confidence: "exact",
      },
    ],
    [
      "the admission record's field manager, with no user agent",
      patched,
      [record("2026-12-02T10:02:02.950Z", { fieldManager: "kubectl-patch", via: "admission", fields: replicas })],
      { username: "alice", groups: ["sre"], at: "2026-12-02T10:02:02.950Z", confidence: "exact" },
    ],
    [
      "the newest of two fitting writes that changed the field",
      patched,
      [
        record("2026-12-02T10:02:00.100Z", { username: "bob", fieldManager: "kubectl-patch", fields: replicas }),
        record("2026-12-02T10:02:03.500Z", { fieldManager: "kubectl-patch", fields: replicas }),
      ],
      { username: "alice", groups: ["sre"], at: "2026-12-02T10:02:03.500Z", confidence: "exact" },
    ],
    [
      "a service account named as such",
      { ...patched, manager: "deployer" },
      [
        record("2026-12-02T10:02:03.100Z", {
          username: "system:serviceaccount:ci:deployer",
          groups: ["system:serviceaccounts"],
          serviceAccount: "ci:deployer",
          userAgent: "deployer/1.0",
          fields: replicas,
        }),
      ],
      {
        username: "system:serviceaccount:ci:deployer",
        groups: ["system:serviceaccounts"],
        serviceAccount: "ci:deployer",
        userAgent: "deployer/1.0",
        at: "2026-12-02T10:02:03.100Z",
        confidence: "exact",
      },
    ],
    [
      "a controller's write stays the controller's, though a person wrote the object a moment before",
      { ...patched, manager: "kube-controller-manager" },
      [
        record("2026-12-02T10:02:02.900Z", { fieldManager: "kubectl-edit", fields: replicas }),
        record("2026-12-02T10:02:03.200Z", {
          username: "system:serviceaccount:kube-system:deployment-controller",
          groups: [],
          serviceAccount: "kube-system:deployment-controller",
          userAgent: "kube-controller-manager/v1.34.1",
          fields: replicas,
        }),
      ],
      {
        username: "system:serviceaccount:kube-system:deployment-controller",
        groups: [],
        serviceAccount: "kube-system:deployment-controller",
        userAgent: "kube-controller-manager/v1.34.1",
        at: "2026-12-02T10:02:03.200Z",
        confidence: "exact",
      },
    ],
    [
      "a lone record naming neither manager nor agent is likely",
      patched,
      [record("2026-12-02T10:02:03.300Z", { via: "admission" })],
      { username: "alice", groups: ["sre"], at: "2026-12-02T10:02:03.300Z", confidence: "likely" },
    ],
    [
      "none when only another manager's write is near",
      patched,
      [record("2026-12-02T10:02:03.300Z", { fieldManager: "helm" })],
      undefined,
    ],
    [
      "none when the agent does not fit",
      patched,
      [record("2026-12-02T10:02:03.300Z", { userAgent: "Helm/3.17" })],
      undefined,
    ],
    [
      "none when the write is minutes away",
      patched,
      [record("2026-12-02T10:07:03.000Z", { fieldManager: "kubectl-patch" })],
      undefined,
    ],
    [
      "none when two writes name nothing and either could be it",
      patched,
      [record("2026-12-02T10:02:03.100Z"), record("2026-12-02T10:02:03.300Z", { username: "bob" })],
      undefined,
    ],
    [
      "none for a delete or a status write",
      patched,
      [
        record("2026-12-02T10:02:03.100Z", { verb: "delete", fieldManager: "kubectl-patch" }),
        record("2026-12-02T10:02:03.200Z", { subresource: "status", fieldManager: "kubectl-patch" }),
      ],
      undefined,
    ],
    ["none for a change without a manager's time", { path: "/spec/replicas", desired: 2 }, [alice], undefined],
  ])("%s", (_, change, records, actor) => {
    expect(actorFor(change, records)).toEqual(actor);
  });
});

describe("two people patching one object seconds apart, each a different field", () => {
  // Kubernetes keeps one kubectl-patch entry for both fields, stamped with bob's (the later) time.
  const stamp = "2026-12-02T10:02:03Z";
  const settings = { group: "", kind: "ConfigMap", namespace: "shop", name: "settings" };
  const level: Change = { path: "/data/LOG_LEVEL", manager: "kubectl-patch", changedAt: stamp };
  const max: Change = { path: "/data/max", manager: "kubectl-patch", changedAt: stamp };
  const write = (username: string, at: string, extra: Partial<WriteRecord>) =>
    record(at, { object: settings, username, groups: [username === "alice" ? "sre" : "dev"], ...extra });
  const aliceAt = "2026-12-02T10:02:01.200Z";
  const bobAt = "2026-12-02T10:02:03.300Z";

  it("names each person for the field their own write changed, not the later person for both", () => {
    const records = [
      write("alice", aliceAt, { fieldManager: "kubectl-patch", via: "admission", fields: ["/data/LOG_LEVEL"] }),
      write("bob", bobAt, { fieldManager: "kubectl-patch", via: "admission", fields: ["/data/max"] }),
    ];
    expect(actorFor(level, records)).toEqual({ username: "alice", groups: ["sre"], at: aliceAt, confidence: "exact" });
    expect(actorFor(max, records)).toEqual({ username: "bob", groups: ["dev"], at: bobAt, confidence: "exact" });
  });

  it("names the earlier person though their write is longer ago than the entry's seconds", () => {
    const earlier = "2026-12-02T10:01:40.000Z";
    const records = [
      write("alice", earlier, { userAgent: "kubectl/v1.34.1", fields: ["/data/LOG_LEVEL"] }),
      write("bob", bobAt, { userAgent: "kubectl/v1.34.1", fields: ["/data/max"] }),
    ];
    expect(actorFor(level, records)).toMatchObject({ username: "alice", at: earlier, confidence: "exact" });
  });

  it("names nobody when the records do not say which fields their writes changed", () => {
    const records = [
      write("alice", aliceAt, { fieldManager: "kubectl-patch" }),
      write("bob", bobAt, { fieldManager: "kubectl-patch" }),
    ];
    expect(actorFor(level, records)).toBeUndefined();
    expect(actorFor(max, records)).toBeUndefined();
  });

  it("names nobody when a newer write by someone else may have changed the field too", () => {
    const records = [
      write("alice", aliceAt, { fieldManager: "kubectl-patch", fields: ["/data/LOG_LEVEL"] }),
      write("bob", bobAt, { fieldManager: "kubectl-patch", fields: ["/data/max"], within: ["/data"] }),
    ];
    expect(actorFor(level, records)).toBeUndefined();
    const unsaid = [records[0]!, write("bob", bobAt, { fieldManager: "kubectl-patch" })];
    expect(actorFor(level, unsaid)).toBeUndefined();
  });

  it("says `likely`, not `exact`, for the one person writing near the field's time whose record does not say what it changed", () => {
    const records = [write("bob", bobAt, { fieldManager: "kubectl-patch" })];
    expect(actorFor(max, records)).toEqual({ username: "bob", groups: ["dev"], at: bobAt, confidence: "likely" });
  });

  it("names nobody when no fitting write changed the field", () => {
    const records = [write("bob", bobAt, { fieldManager: "kubectl-patch", fields: ["/data/max"] })];
    expect(actorFor(level, records)).toBeUndefined();
  });
});

describe("attributeActors", () => {
  it("puts the actor on the changes of the object the records are of, and nowhere else", () => {
    const report: DriftReport = {
      target: "prod",
      revision: "abc",
      summary: { inSync: 0, drifted: 2, missing: 0, orphaned: 0 },
      problems: [],
      fingerprint: "f",
      resources: [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          namespace: "shop",
          name: "web",
          status: "drifted",
          changes: [patched],
        },
        { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "web", status: "drifted", changes: [patched] },
      ],
    };
    const records = new Map([
      [
        "apps/Deployment/shop/web",
        [record("2026-12-02T10:02:03.100Z", { fieldManager: "kubectl-patch", fields: ["/spec/replicas"] })],
      ],
    ]);
    const out = attributeActors(report, (key) => records.get(key) ?? []);
    expect(out.resources.map((r) => r.changes[0]?.actor?.username)).toEqual(["alice", undefined]);
    expect(report.resources[0]?.changes[0]?.actor).toBeUndefined();
  });

  const missing = (): DriftReport => ({
    target: "prod",
    revision: "abc",
    summary: { inSync: 0, drifted: 0, missing: 1, orphaned: 0 },
    problems: [],
    fingerprint: "f",
    resources: [
      { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web", status: "missing", changes: [] },
    ],
  });

  it("says who deleted a missing object when its newest record is the deletion", () => {
    const records = [
      record("2026-12-02T09:00:00Z", { verb: "create", username: "carol", groups: ["dev"] }),
      record("2026-12-02T10:02:03Z", { verb: "delete", username: "bob", groups: ["dev"], sourceIP: "10.1.2.4" }),
    ];
    const out = attributeActors(missing(), () => records);
    expect(out.resources[0]?.deletedBy).toEqual({
      username: "bob",
      groups: ["dev"],
      sourceIP: "10.1.2.4",
      at: "2026-12-02T10:02:03Z",
      confidence: "exact",
    });
  });

  it("names nobody for a missing object written after its recorded deletion (that deletion went unrecorded)", () => {
    const records = [
      record("2026-12-02T09:00:00Z", { verb: "delete", username: "bob" }),
      record("2026-12-02T10:00:00Z", { verb: "create", username: "carol" }),
    ];
    expect(attributeActors(missing(), () => records).resources[0]?.deletedBy).toBeUndefined();
    expect(attributeActors(missing(), () => []).resources[0]?.deletedBy).toBeUndefined();
  });
});
