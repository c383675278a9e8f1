// The watch benchmarks' repository and cluster: T plain targets of K ConfigMaps
// each, one folder per target, all in one namespace, applied as an applier
// would (server-side apply, field manager `undrift`, the tracking label).
// bench/watch.bench.ts times the engine's two paths on it; bench/watch-app.bench.ts
// the app's worker.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { KubeClient } from "../../src/live/kube-client.ts";
import { mapLimit } from "../../src/live/map-limit.ts";
import { runId } from "./generate.ts";
import type { Workspace } from "./workspace.ts";

export interface WatchTargets {
  targets: number;
  perTarget: number;
  namespace: string;
  targetName(t: number): string;
  cmName(t: number, i: number): string;
  /** Every object as [target, index], in order. */
  all: Array<[number, number]>;
}

export function watchTargets(params: { targets: number; perTarget: number; prefix: string }): WatchTargets {
  const id = runId();
  const { targets, perTarget } = params;
  return {
    targets,
    perTarget,
    namespace: `${params.prefix}-${id}`,
    targetName: (t) => `w${id}-${String(t).padStart(4, "0")}`,
    cmName: (t, i) => `t${String(t).padStart(4, "0")}-cm${String(i).padStart(2, "0")}`,
    all: Array.from({ length: targets * perTarget }, (_, n) => [Math.floor(n / perTarget), n % perTarget]),
  };
}

/** Writes the repository into `dir`: `.github/undrift.yml` with one warn-mode target per folder on `cluster`. */
export async function writeWatchRepo(w: WatchTargets, dir: string, cluster: string): Promise<void> {
  const config = ["schedule: 15m", "targets:"];
  for (let t = 0; t < w.targets; t++) {
    config.push(`  - name: ${w.targetName(t)}`, `    cluster: ${cluster}`, `    path: t${t}`, "    render: plain");
    config.push(`    namespace: ${w.namespace}`, "    mode: warn");
    const docs = Array.from(
      { length: w.perTarget },
      (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${w.cmName(t, i)}\ndata:\n  LOG_LEVEL: info\n`,
    );
    await mkdir(join(dir, `t${t}`), { recursive: true });
    await writeFile(join(dir, `t${t}`, "config.yaml"), docs.join("---\n"));
  }
  await mkdir(join(dir, ".github"), { recursive: true });
  await writeFile(join(dir, ".github/undrift.yml"), `${config.join("\n")}\n`);
}

/**
 * Creates the namespace and applies every object; the workspace's cleanup (Ctrl-C too) removes them again.
 */
export async function applyWatchObjects(w: WatchTargets, admin: KubeClient, workspace: Workspace): Promise<void> {
  workspace.cleanup = async () => {
    await admin
      .send({
        method: "DELETE",
        path: `/api/v1/namespaces/${w.namespace}/configmaps`,
        query: { labelSelector: "undrift.dev/target" },
      })
      .catch(() => undefined);
    await admin.send({ method: "DELETE", path: `/api/v1/namespaces/${w.namespace}` }).catch(() => undefined);
  };
  await admin.send({ method: "POST", path: "/api/v1/namespaces", body: { metadata: { name: w.namespace } } });
  await mapLimit(w.all, 16, ([t, i]) =>
    admin.send({
      method: "PATCH",
      path: `/api/v1/namespaces/${w.namespace}/configmaps/${w.cmName(t, i)}`,
      query: { fieldManager: "undrift", force: true },
      contentType: "application/apply-patch+yaml",
      body: {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: w.cmName(t, i), namespace: w.namespace, labels: { "undrift.dev/target": w.targetName(t) } },
        data: { LOG_LEVEL: "info" },
      },
    }),
  );
}

/** Sets the LOG_LEVEL of target t's ConfigMap i, as an outside client would. */
export async function setLogLevel(
  admin: KubeClient,
  w: WatchTargets,
  t: number,
  i: number,
  level: string,
): Promise<void> {
  await admin.send({
    method: "PATCH",
    path: `/api/v1/namespaces/${w.namespace}/configmaps/${w.cmName(t, i)}`,
    contentType: "application/merge-patch+json",
    body: { data: { LOG_LEVEL: level } },
  });
}
