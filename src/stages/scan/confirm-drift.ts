// The second, exact pass over what the local pass could not settle, one object at a time:
//   - a dry-run apply of the desired object: what applying Git would change;
//   - where hand-added fields remain, a dry-run create of the desired object under a
//     generated name: the server's defaults, which an object first made with
//     `kubectl create` lists as its creator's fields although no person chose them.
// A request the identity may not make (a read-only identity may not dry-run) keeps the
// local result and says so; the scan goes on. In the app's worker, a dry-run already
// answered against the same state of the live object is not sent again (DryRunMemo).
// It returns the new comparison and what it found; the caller's pairing is left as it was.

import { type ComparePolicy, compareObject, type ObjectComparison } from "../../drift/compare-object.ts";
import { redactObjectValues } from "../../drift/mask.ts";
import type { ClusterSession, DryRunAnswer } from "../../live/cluster-session.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { KubeApiError } from "../../live/errors.ts";
import { groupOf, objectKey } from "../../model/object-key.ts";
import type { KubeObject, ScanProblem } from "../../model/types.ts";

export interface Confirmed {
  /** The comparison with the server's answers; the local one when no dry-run answered. */
  comparison: ObjectComparison;
  /** Why the server refused the desired object as invalid (applying it would fail so), Secret values redacted. */
  refused?: string;
  /** A dry-run the identity may not send, or that failed: the local result stands, and this says why. */
  problems: ScanProblem[];
  dryRuns: number;
  reused: number;
}

export async function confirmDrift(params: {
  desired: KubeObject;
  /** The desired object's fields that hold Secret data (DesiredObject.sensitive): never quoted in a problem. */
  sensitive?: readonly string[] | undefined;
  live: KubeObject;
  /** The local pass's comparison of the two. */
  comparison: ObjectComparison;
  /** The scan's cluster session: a dry-run another scan of the session already sent is not sent again. */
  session: ClusterSession;
  index: ResourceIndex;
  fieldManager: string;
  policy: ComparePolicy;
}): Promise<Confirmed> {
  const { desired, live, session, index, fieldManager, policy } = params;
  const resource = index.find(desired.apiVersion, desired.kind)!;
  const compare = (wouldBe?: KubeObject, defaulted?: KubeObject) =>
    compareObject({ desired, live, wouldBe, defaulted, group: groupOf(desired.apiVersion), policy });
  // The problem carries the object's key, which every output prints before the message: the message names it no more.
  const refusalOf = (error: KubeApiError) => redactObjectValues(error.refusal, desired, params.sensitive);
  const found: Confirmed = { comparison: params.comparison, problems: [], dryRuns: 0, reused: 0 };
  const unconfirmed = (what: string, error: KubeApiError) => {
    found.problems.push({ ...objectKey(desired), message: `${what}: ${refusalOf(error)}` });
  };
  const count = (answer: DryRunAnswer) => {
    if (answer.reused) found.reused++;
    else found.dryRuns++;
    return answer.object;
  };
  let wouldBe: KubeObject | undefined;
  if (found.comparison.needsDryRun) {
    try {
      wouldBe = count(await session.dryRunApply({ resource, object: desired, fieldManager, live }));
      found.comparison = compare(wouldBe);
    } catch (error) {
      if (!(error instanceof KubeApiError)) throw error;
      unconfirmed("not confirmed by dry-run", error);
      // A preview says the apply would fail, with why, rather than show the local changes as a plain change.
      if (error.invalidObject) found.refused = refusalOf(error);
      return found;
    }
  }
  if (found.comparison.needsDefaults) {
    const fresh = structuredClone(desired);
    const { name, resourceVersion: _rv, ...metadata } = fresh.metadata;
    fresh.metadata = { ...metadata, name: "", generateName: `${name.slice(0, 40)}-` };
    try {
      const defaulted = count(await session.dryRunCreate({ resource, object: fresh, fieldManager, live }));
      found.comparison = compare(wouldBe, defaulted);
    } catch (error) {
      if (!(error instanceof KubeApiError)) throw error;
      // Some kinds cannot be created under another name (a CRD's name is its plural.group); keep what was found.
      unconfirmed("hand-added fields not checked against server defaults", error);
    }
  }
  return found;
}
