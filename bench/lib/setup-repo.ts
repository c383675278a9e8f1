// The untimed start of every benchmark size: generate the repository, server-side
// apply it as a GitOps applier would, and drift 1% of its objects with kubectl.
import { join } from "node:path";
import type { KubeClient } from "../../src/live/kube-client.ts";
import { type Injection, injectDrift } from "./drift.ts";
import { type BenchRepo, generateRepo, runId } from "./generate.ts";
import { applyAll } from "./kube.ts";
import { log } from "./settings.ts";
import type { Workspace } from "./workspace.ts";

export interface SetUpRepo {
  repo: BenchRepo;
  applySeconds: number;
  injected: Injection[];
}

/** Sets `workspace.repo` as soon as the repository exists, so its objects are cleaned up whatever fails next. */
export async function setupRepo(params: {
  workspace: Workspace;
  n: number;
  kubeconfig: string;
  admin: KubeClient;
  prune?: boolean;
  /** Runs between writing the repository and applying it (the preview commits it as `main`). */
  beforeApply?: (repo: BenchRepo) => Promise<void>;
}): Promise<SetUpRepo> {
  const { workspace, n } = params;
  log(`N = ${n}: generating the repository in ${workspace.tmp}`);
  const repo = await generateRepo({ dir: join(workspace.tmp, "repo"), n, id: runId(), prune: params.prune });
  workspace.repo = repo;
  await params.beforeApply?.(repo);

  log(`N = ${n}: server-side applying ${repo.objects.length + repo.namespaces.length} objects (untimed)`);
  const applyStarted = performance.now();
  await applyAll(params.admin, repo);
  const applySeconds = (performance.now() - applyStarted) / 1000;

  const count = Math.max(1, Math.round(n / 100));
  log(`N = ${n}: drifting ${count} objects with kubectl`);
  const injected = await injectDrift({ objects: repo.objects, count, kubeconfig: params.kubeconfig });
  return { repo, applySeconds, injected };
}
