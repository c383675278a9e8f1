// A heal share of a scan, built in-process (no cluster: heal's plan and count
// read only desired objects, pairings, the report and the policy), and the
// fight watch heal builds on it, with each field's heal count given by the test.
import { targetSchema } from "../../../../src/config/target-schema.ts";
import type { Pairing } from "../../../../src/drift/build-report.ts";
import { comparePolicy } from "../../../../src/drift/compare-policy.ts";
import { loadJq } from "../../../../src/drift/jq.ts";
import { summarize } from "../../../../src/drift/summarize.ts";
import type { Change, DesiredObject, DriftReport, KubeObject, ResourceReport } from "../../../../src/model/types.ts";
import { type HealFightWatch, watchHealFights } from "../../../../src/modes/heal/watch-heal-fights.ts";
import type { FieldRef } from "../../../../src/plan/fight-policy.ts";
import type { ScanResult } from "../../../../src/stages/scan/scan-target.ts";
import type { HealFights } from "../../../../src/state/heal-fights.ts";
import type { WorkerDeps } from "../../../../src/worker/worker-deps.ts";

export const target = targetSchema.parse({ name: "shop", cluster: "prod", path: "apps/shop", mode: "heal" });

export function deployment(name: string, replicas: number, image = "ghcr.io/acme/web:1.4.2"): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "shop" },
    spec: { replicas, template: { spec: { containers: [{ name: "web", image }] } } },
  };
}

export const key = (name: string) => `apps/Deployment/shop/${name}`;
export const IMAGE = "/spec/template/spec/containers/0/image";

/** An object as the scan saw it: its desired side and, unless missing, a live side with these changes. */
export interface Seen {
  desired: KubeObject;
  changes?: Change[];
  missing?: boolean;
}

/** The parts of a scan heal reads; the cluster client and discovery are never reached by plan or count. */
export async function healScan(seen: Seen[]): Promise<ScanResult> {
  const desired: DesiredObject[] = seen.map((s) => ({
    object: s.desired,
    source: { file: "apps/shop/web.yaml", document: 0 },
  }));
  const pairings: Pairing[] = seen.map((s, i) => {
    const d = desired[i]!;
    if (s.missing) return { desired: d };
    const live = structuredClone(s.desired);
    const changes = s.changes ?? [];
    return {
      desired: d,
      live,
      comparison: { changes, needsDryRun: false, needsDefaults: false, live, wouldBe: s.desired },
    };
  });
  const resources: ResourceReport[] = seen.map((s) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    namespace: "shop",
    name: s.desired.metadata.name,
    status: s.missing ? "missing" : (s.changes ?? []).length > 0 ? "drifted" : "in-sync",
    changes: s.changes ?? [],
  }));
  const report: DriftReport = {
    target: target.name,
    revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    ...summarize(resources),
    resources,
    problems: [],
  };
  return {
    target,
    report,
    desired,
    pairings,
    policy: comparePolicy(target, await loadJq()),
  } as ScanResult; // index, repoDir, config: discovery and the tree, which plan and count never read
}

/**
 * Heal's watch of this scan, as heal-drift.ts builds it (which manager is a fighting program, the changes by
 * object), with the heal counts that live in Redis given here instead: `counts` by `object path manager`,
 * and `recorded` says which heals heal asked to keep.
 */
export function fightWatch(params: { scan: ScanResult; counts?: Record<string, number>; heals?: number }) {
  const counts = new Map(Object.entries(params.counts ?? {}));
  const recorded: string[] = [];
  const id = (field: FieldRef, manager: string) => `${field.object} ${field.path} ${manager}`;
  const fights: HealFights = {
    count: async (field, manager) => counts.get(id(field, manager)) ?? 0,
    record: async (field, manager) => {
      recorded.push(id(field, manager));
      const n = (counts.get(id(field, manager)) ?? 0) + 1;
      counts.set(id(field, manager), n);
      return n;
    },
  };
  // Only the policy is read from deps here: the Redis store it would make is replaced by `fights`.
  const deps = { queues: { prefix: "unit" }, healFights: { heals: params.heals ?? 3 } } as unknown as WorkerDeps;
  const watch: HealFightWatch = {
    ...watchHealFights({ deps, repo: "acme/gitops", scan: params.scan, target }),
    fights,
  };
  return { watch, recorded };
}
