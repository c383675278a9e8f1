// What the test cluster's controllers did, read with kubectl as a user reads it:
// rollouts, a Deployment's ReplicaSets and Pods, polls with a bound.
import { kubeconfigPath } from "./cluster.ts";
import { type CliResult, kubectl, type Scenario, undrift } from "./scenario.ts";

export { eventually } from "./eventually.ts";

// biome-ignore lint/suspicious/noExplicitAny: kubectl's JSON, read field by field as a user reads it.
export type Obj = Record<string, any>;

export async function getJson(args: string[]): Promise<Obj> {
  return JSON.parse(await kubectl([...args, "-o", "json"])) as Obj;
}

/** Waits for the Deployment's rollout as `kubectl rollout status` judges it. */
export async function rolledOut(namespace: string, name: string): Promise<void> {
  await kubectl(["-n", namespace, "rollout", "status", `deployment/${name}`, "--timeout=120s"]);
}

/** The ReplicaSets and Pods in the namespace, each as `Kind/name` with its uid, and the objects themselves. */
export async function dependents(namespace: string): Promise<{ replicaSets: Obj[]; pods: Obj[] }> {
  const replicaSets = (await getJson(["-n", namespace, "get", "replicasets"])).items as Obj[];
  const pods = (await getJson(["-n", namespace, "get", "pods"])).items as Obj[];
  return { replicaSets, pods };
}

/** `Kind/name=uid` of each object, sorted: what a delete and re-create would change. */
export const identities = (objects: Obj[]) =>
  objects.map((o) => `${o.kind}/${o.metadata.name}=${o.metadata.uid}`).sort();

/** `undrift revert` on the scenario's target with extra flags. */
export function revert(s: Scenario, flags: string[]): Promise<CliResult> {
  return undrift(["revert", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), ...flags]);
}

/** `undrift codify` on the scenario's target with extra flags. */
export function codify(s: Scenario, flags: string[] = []): Promise<CliResult> {
  return undrift(["codify", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath(), ...flags]);
}

/** The scenario's `.github/undrift.yml` with these settings on its one target. */
export function targetConfig(s: Scenario, settings: Record<string, unknown>): string {
  const target = { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, ...settings };
  return `${JSON.stringify({ targets: [target] }, null, 2)}\n`;
}

/** Deletes namespaces a test made, without waiting: the namespace controller finishes it. */
export async function deleteNamespaces(names: string[]): Promise<void> {
  if (names.length > 0) await kubectl(["delete", "namespace", "--wait=false", "--ignore-not-found", ...names]);
}
