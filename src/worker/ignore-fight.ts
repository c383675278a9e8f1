// A heal fight turned into the target's ignore pull request: the fought fields
// are ticked for undrift itself, and the same proposal as the tracking issue's
// ignore box runs (modes/ignore/propose-ignore.ts): a rule by `managedFieldsManagers` for the
// fighting controller, proved by a second scan. A proposal that fails for good
// (a config it cannot edit) does not stop the heal: the issue says why instead.
import { UndriftError } from "../model/undrift-error.ts";
import type { IgnoreOutcome } from "../modes/ignore/ignore-outcome.ts";
import { proposeIgnore } from "../modes/ignore/propose-ignore.ts";
import type { FoughtObject } from "../report/app/heal-sections.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";
import { ignoreContext } from "./mode-context.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** Who asks for a fight's ignore pull request, as its body and the audit stream say. */
export const FIGHT_REQUESTER = "undrift (heal fight)";

export async function ignoreFight(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
  /** The whole scan, every mode's share: the proof compares the rescan with all of it. */
  scan: ScanResult;
  fought: FoughtObject[];
}): Promise<IgnoreOutcome> {
  const ticks = params.fought.flatMap(({ object, fields }) =>
    fields.map((field) => ({
      apiVersion: object.apiVersion,
      kind: object.kind,
      ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata.name,
      path: field.path,
      requestedBy: FIGHT_REQUESTER,
    })),
  );
  try {
    const context = ignoreContext({ deps: params.deps, resolved: params.resolved });
    return await proposeIgnore({ context, scan: params.scan, ticks });
  } catch (error) {
    if (!(error instanceof UndriftError) || !error.permanent) throw error;
    return { outcome: "refused", fields: [], managers: [], lines: [`No ignore pull request: ${error.message}`] };
  }
}
