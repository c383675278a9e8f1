// A size's temporary folder and the objects it put on the cluster, removed when
// the size ends, and on Ctrl-C too: one handler for every benchmark in the process.
import { rm } from "node:fs/promises";
import type { KubeClient } from "../../src/live/kube-client.ts";
import type { BenchRepo } from "./generate.ts";
import { countLeft, deleteAll } from "./kube.ts";
import { keep, log } from "./settings.ts";

export interface Workspace {
  tmp: string;
  admin: KubeClient;
  /** Set once the repository exists: its target's objects are then the workspace's. */
  repo?: BenchRepo;
  /** What else the size put on the cluster and must take off it (the watch bench's namespace). */
  cleanup?: () => Promise<void>;
}

const pending = new Set<Workspace>();
let handlerInstalled = false;

/** Tracks `tmp` (and later its repo) until closeWorkspace or releaseWorkspace. */
export function openWorkspace(tmp: string, admin: KubeClient): Workspace {
  if (!handlerInstalled) {
    handlerInstalled = true;
    process.once("SIGINT", () => {
      log("interrupted; cleaning up");
      Promise.all([...pending].map(closeWorkspace)).finally(() => process.exit(130));
    });
  }
  const workspace: Workspace = { tmp, admin };
  pending.add(workspace);
  return workspace;
}

/** Stops tracking without removing anything (BENCH_SETUP_ONLY hands it to the user). */
export function releaseWorkspace(workspace: Workspace): void {
  pending.delete(workspace);
}

/** Deletes the repo's objects and namespaces, then the folder (unless BENCH_KEEP=1); returns the objects still there. */
export async function closeWorkspace(workspace: Workspace): Promise<number | undefined> {
  pending.delete(workspace);
  let left: number | undefined;
  if (workspace.repo) {
    try {
      await deleteAll(workspace.admin, workspace.repo);
      left = await countLeft(workspace.admin, workspace.repo);
    } catch (error) {
      log(`cleanup of ${workspace.repo.target} failed: ${error instanceof Error ? error.message : String(error)}`);
      log(`remove by hand: kubectl delete cm,svc,deploy -A -l undrift.dev/target=${workspace.repo.target}`);
    }
  }
  await workspace.cleanup?.().catch((error: unknown) => {
    log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (!keep) await rm(workspace.tmp, { recursive: true, force: true });
  else log(`kept ${workspace.tmp}`);
  return left;
}
