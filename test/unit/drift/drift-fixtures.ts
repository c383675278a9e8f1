// Fixtures for the drift engine, in gitops-engine's style: `<case>-desired.json`
// (what Git renders) and `<case>-live.json` (what the API server returns, with
// its managedFields), plus `<case>-would-be.json` where a case has the result
// of a server-side dry-run apply. And the comparison policy a target gets from
// its configuration, built the way a scan builds it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { targetSchema } from "../../../src/config/target-schema.ts";
import { type ComparePolicy, compareObject, type ObjectComparison } from "../../../src/drift/compare-object.ts";
import { comparePolicy } from "../../../src/drift/compare-policy.ts";
import type { IgnoreRule, Jq } from "../../../src/drift/ignore-rules.ts";
import { loadJq } from "../../../src/drift/jq.ts";
import { groupOf } from "../../../src/model/object-key.ts";
import type { Change, KubeObject, ManagedFieldsEntry } from "../../../src/model/types.ts";

const fixtures = new URL("../../fixtures/drift/", import.meta.url);

/** A fixture object, a fresh copy on every call so tests can edit it. */
export function fixture(name: string): KubeObject {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`${name}.json`, fixtures)), "utf8")) as KubeObject;
}

export interface Case {
  desired: KubeObject;
  live: KubeObject;
}

export function fixtureCase(name: string): Case {
  return { desired: fixture(`${name}-desired`), live: fixture(`${name}-live`) };
}

/** The ConfigMap case with Git declaring exactly what live holds: in sync until a test changes something. */
export function configMapInSync(): Case {
  const pair = fixtureCase("configmap-dropped-key");
  pair.desired.data = structuredClone(pair.live.data);
  return pair;
}

/** The data of a ConfigMap, to edit in a test. */
export const dataOf = (object: KubeObject) => object.data as Record<string, string>;

export interface TargetOptions {
  fieldManager?: string;
  humanManagers?: string[];
  ignoreDifferences?: Array<Partial<IgnoreRule>>;
  noiseFilters?: Record<string, boolean>;
}

/** The policy of a target configured with these options (everything else at its default). */
export async function policyFor(options: TargetOptions = {}): Promise<ComparePolicy> {
  const target = targetSchema.parse({ name: "shop", cluster: "prod-eu", path: "apps/shop", ...options });
  return comparePolicy(target, await jq());
}

export function jq(): Promise<Jq> {
  return loadJq();
}

/** Compares a desired/live pair (and a dry-run result, for the exact pass) under a target's policy. */
export async function compare(
  pair: Case & { wouldBe?: KubeObject },
  options: TargetOptions = {},
): Promise<ObjectComparison> {
  const policy = await policyFor(options);
  return compareObject({ ...pair, group: groupOf(pair.live.apiVersion), policy });
}

/** Changes in a fixed order, so tests do not depend on the order rules run in. */
export function byPath(changes: Change[]): Change[] {
  return [...changes].sort((a, b) => a.path.localeCompare(b.path));
}

/** The entry of a manager in an object's managedFields (the first, if it has several). */
export function entryOf(object: KubeObject, manager: string): ManagedFieldsEntry {
  const entry = object.metadata.managedFields?.find((e) => e.manager === manager);
  if (!entry) throw new Error(`no managedFields entry of ${manager}`);
  return entry;
}

export interface Container {
  name: string;
  image?: string;
  ports: Array<Record<string, unknown>>;
  env: Array<{ name: string; value?: string }>;
  [field: string]: unknown;
}

/** A pod template's containers, to edit a fixture in a test. */
export function containersOf(object: KubeObject): Container[] {
  const spec = object.spec as { template: { spec: { containers: Container[] } } };
  return spec.template.spec.containers;
}
