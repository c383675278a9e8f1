// The CLI's scan entry: the config read (unless given) and the target picked by name,
// here at the CLI's edge and nowhere below, then the scan of the resolved target.
import type { KubeConfig } from "@kubernetes/client-node";
import { readRepoConfig } from "../config/load-config.ts";
import type { RepoConfig } from "../config/schema.ts";
import type { RenderResult } from "../desired/render-target.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import type { DriftReport } from "../model/types.ts";
import { type ScanResult, scanResolvedTarget } from "../stages/scan/scan-target.ts";
import { cliTarget } from "./cli-targets.ts";

export async function scanTarget(params: ScanParams): Promise<DriftReport> {
  return (await runScan(params)).report;
}

export interface ScanParams {
  repoDir: string;
  targetName: string;
  kubeConfig: KubeConfig;
  config?: RepoConfig;
  /** The target already rendered from `repoDir` (a preview renders base and head first, to see whether they differ). */
  rendered?: RenderResult;
  /** The revision to report, when `repoDir` is not a checkout of it (an extracted snapshot). */
  revision?: string;
  /** Discovery and LISTs shared with the other scans of this cluster in one run; a scan of its own by default. */
  session?: ClusterSession;
}

/** The CLI's entry: the config read and the target picked by name, then the scan of the resolved target. */
export async function runScan(params: ScanParams): Promise<ScanResult> {
  const started = performance.now();
  const config = params.config ?? (await readRepoConfig(params.repoDir));
  const session = params.session ?? new ClusterSession(params.kubeConfig);
  const target = await cliTarget({ config, repoDir: params.repoDir, session: () => session, name: params.targetName });
  const { rendered, revision } = params;
  return scanResolvedTarget({
    repoDir: params.repoDir,
    config,
    target,
    session,
    started,
    ...(rendered ? { rendered } : {}),
    ...(revision !== undefined ? { revision } : {}),
  });
}
