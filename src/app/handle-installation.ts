// The app was installed, or repositories were added to an installation: each
// repository's config is loaded and its targets scheduled (and scanned at once).
// One repository's failure does not stop the others; it is thrown at the end.
import type { ProbotOctokit } from "probot";
import type { KeyValueStore } from "../github/key-value-store.ts";
import { listInstallationRepositories } from "../github/list-installations.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { syncRepoSchedulers } from "../schedules/sync-repo-schedulers.ts";
import type { AppDeps } from "./app-deps.ts";

export async function handleInstallation(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  store: KeyValueStore;
  log: QueueLog;
  installationId: number;
  /** From the payload; when GitHub left it out, the installation's repositories are listed. */
  repositories: ReadonlyArray<{ full_name: string }> | undefined;
  actor: string;
}): Promise<void> {
  const { octokit } = params;
  const repositories = params.repositories ?? (await listInstallationRepositories(octokit));
  const failures: Error[] = [];
  for (const { full_name } of repositories) {
    const [owner = "", repo = ""] = full_name.split("/");
    try {
      await syncRepoSchedulers({ ...params, owner, repo, reason: "install" });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      params.log.error({ err: failure, repo: full_name }, "could not schedule the repository's targets");
      failures.push(failure);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1)
    throw new AggregateError(
      failures,
      `${failures.length} repositories could not be scheduled: ${failures[0]?.message}`,
    );
}
