// One shape for every mode: a pure `plan` from the mode's share of a scan (its
// findings) and the target's policy to what the mode will do, and an `act`
// that does it (the I/O, through github/, remediate/ and state/) and says what
// was done (ModeResult: audit events and the check run's lines). The words a
// mode contributes to reports are its renderers in report/app/ (codify-pr-body,
// revert-pr-body, heal-sections, dashboard-body, ...), which its act calls.
//
// Every handler takes the same parameters, the share and one ModeContext built
// once per scan, so that the worker dispatches through one Record<Mode, ...>
// (mode-handlers.ts) and knows no mode's parameter list: each mode reads from
// the context what it needs, and a new mode adds a handler, not a branch with
// arguments of its own. A plan of `undefined` is "nothing to do for this share"
// (warn's when heal files the tracking issue), and act is not called.
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import type { GitHubClient } from "../github/github-client.ts";
import type { KubeClient } from "../live/kube-client.ts";
import type { DriftReport } from "../model/types.ts";
import type { ModeShare } from "../plan/mode-shares.ts";
import type { FoughtObject } from "../report/app/heal-sections.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";
import type { IgnoreOutcome } from "./ignore/ignore-outcome.ts";
import type { ModeDeps } from "./mode-deps.ts";
import type { ModeResult } from "./mode-result.ts";

/** What every mode of one scan is given: the scan, its target and repository, and what the worker lends. */
export interface ModeContext {
  deps: ModeDeps;
  /** The installation's client with conditional GETs (ETags in Redis). */
  octokit: GitHubClient;
  owner: string;
  repo: string;
  /** The commit the scan read: pull requests are built on it. */
  base: { branch: string; sha: string; treeSha: string };
  /** The snapshot the scan rendered (no .git). */
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  /** The whole scan, every mode's objects. */
  scan: ScanResult;
  /** The client of the session the scan ran on, for the modes that write to the cluster (heal). */
  client: KubeClient;
  /** Every mode's share of the scan, in the order they are acted on (mode-shares.ts). */
  shares: readonly ModeShare<ScanResult>[];
  /** What the target's tracking issue reports: the warn and heal shares joined; none when neither is there. */
  issueReport?: DriftReport;
  /**
   * Opens or updates the ignore pull request that ends heal's fights (worker/ignore-fight.ts, through
   * modes/ignore/propose-ignore.ts); none: the issue only shows the rule.
   */
  ignoreFights?: (fought: FoughtObject[]) => Promise<IgnoreOutcome>;
}

export interface ModeHandler<Plan> {
  /** Pure: what the mode will do with its share; undefined when it has nothing to do. */
  plan(share: ModeShare<ScanResult>, context: ModeContext): Plan | undefined;
  /** Does the plan and says what was done. */
  act(plan: Plan, context: ModeContext): Promise<ModeResult>;
}
