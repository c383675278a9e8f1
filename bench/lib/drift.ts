// Drift as a person makes it: kubectl patch, scale, set env, set image, annotate
// and label, on 1% of the objects. Most change a field Git sets (drift for
// undrift and for `kubectl diff --server-side` alike); a few add a field Git does
// not set (drift for undrift by DESIGN.md rule 3, invisible to an SSA dry-run,
// which keeps fields other managers own).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mapLimit } from "../../src/live/map-limit.ts";
import { type BenchKind, type BenchObject, keyOf } from "./generate.ts";

const run = promisify(execFile);

export interface Injection {
  key: string;
  kind: BenchKind;
  namespace: string;
  name: string;
  how: string;
  command: string;
  /** False when the change only adds a field Git does not set: kubectl diff --server-side cannot see it. */
  kubectlSees: boolean;
}

interface Recipe {
  how: string;
  kind: BenchKind;
  kubectlSees: boolean;
  args: (o: BenchObject) => string[];
}

const ns = (o: BenchObject) => ["-n", o.namespace!];

// One full cycle is ten recipes: eight change Git-set fields, two add fields by hand.
const recipes: Recipe[] = [
  {
    how: "patch data value",
    kind: "ConfigMap",
    kubectlSees: true,
    args: (o) => ["patch", "configmap", o.name, ...ns(o), "--type", "merge", "-p", '{"data":{"LOG_LEVEL":"debug"}}'],
  },
  {
    how: "scale",
    kind: "Deployment",
    kubectlSees: true,
    args: (o) => ["scale", "deployment", o.name, ...ns(o), "--replicas=7"],
  },
  {
    how: "set env (Git-set var)",
    kind: "Deployment",
    kubectlSees: true,
    args: (o) => ["set", "env", `deployment/${o.name}`, ...ns(o), "LOG_LEVEL=debug"],
  },
  {
    how: "patch port",
    kind: "Service",
    kubectlSees: true,
    args: (o) => ["patch", "service", o.name, ...ns(o), "-p", '{"spec":{"ports":[{"port":80,"targetPort":9090}]}}'],
  },
  {
    how: "annotate --overwrite",
    kind: "Deployment",
    kubectlSees: true,
    args: (o) => ["annotate", "deployment", o.name, ...ns(o), "acme.dev/team=oncall", "--overwrite"],
  },
  {
    how: "set image",
    kind: "Deployment",
    kubectlSees: true,
    args: (o) => ["set", "image", `deployment/${o.name}`, ...ns(o), "app=nginx:1.28"],
  },
  {
    how: "label --overwrite",
    kind: "Service",
    kubectlSees: true,
    args: (o) => ["label", "service", o.name, ...ns(o), "tier=frontend", "--overwrite"],
  },
  {
    how: "patch: remove data key",
    kind: "ConfigMap",
    kubectlSees: true,
    args: (o) => [
      "patch",
      "configmap",
      o.name,
      ...ns(o),
      "--type",
      "json",
      "-p",
      '[{"op":"remove","path":"/data/FEATURES"}]',
    ],
  },
  {
    how: "set env (new var)",
    kind: "Deployment",
    kubectlSees: false,
    args: (o) => ["set", "env", `deployment/${o.name}`, ...ns(o), "DEBUG_SQL=1"],
  },
  {
    how: "annotate (new key)",
    kind: "ConfigMap",
    kubectlSees: false,
    args: (o) => ["annotate", "configmap", o.name, ...ns(o), "acme.dev/owner=alice"],
  },
];

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Drifts `count` distinct objects with kubectl, cycling through the recipes; returns what it did. */
export async function injectDrift(params: {
  objects: BenchObject[];
  count: number;
  kubeconfig: string;
}): Promise<Injection[]> {
  const pools = new Map<BenchKind, BenchObject[]>();
  for (const o of shuffled(params.objects)) pools.set(o.kind, [...(pools.get(o.kind) ?? []), o]);
  const plan = Array.from({ length: params.count }, (_, i) => {
    const recipe = recipes[i % recipes.length]!;
    const object = pools.get(recipe.kind)?.pop();
    if (!object) throw new Error(`not enough ${recipe.kind} objects to drift`);
    return { recipe, object };
  });
  return mapLimit(plan, 4, async ({ recipe, object }) => {
    const args = recipe.args(object);
    await run("kubectl", [...args, "--kubeconfig", params.kubeconfig]);
    return {
      key: keyOf(object),
      kind: object.kind,
      namespace: object.namespace!,
      name: object.name,
      how: recipe.how,
      command: `kubectl ${args.join(" ")}`,
      kubectlSees: recipe.kubectlSees,
    };
  });
}
