// The dry-run answers of a worker's earlier scans, so that a scan answered from
// the cluster's watches sends a dry-run only for an object, or a desired state,
// that changed since the last one: a target left drifted overnight is scanned
// every 15 minutes, and without this each scan would confirm the same drift
// with the same dry-runs again.
//
//   const memo = new DryRunMemo();
//   const key = memo.keyOf("apply", fieldManager, live, desired);   // undefined: not kept (see keyOf)
//   memo.get(key) ?? memo.set(key, await send());
//
// An answer is a function of the request and the object it lands on, and a
// live object's uid and resourceVersion name one state of it exactly: any
// write to it, a controller's status write included, gives a new
// resourceVersion and so a new key. What else the answer can depend on (an
// admission webhook, a namespace's LimitRange, a CRD's defaults) is not in the
// key; an answer is kept at most `ttlMs` (an hour), so such a change is seen
// within that time, and the memo goes with the watches when the worker loses
// the cluster's lease. Secrets are never kept: the answer holds their values.

import { createHash } from "node:crypto";
import { isSecret } from "../model/is-secret.ts";
import { KeptCopies } from "../model/kept-copies.ts";
import type { KubeObject } from "../model/types.ts";

interface Kept {
  answer: KubeObject;
  at: number;
}

export class DryRunMemo {
  private readonly kept: KeptCopies<Kept>;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}) {
    this.kept = new KeptCopies(options.maxEntries ?? 5_000);
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The key of a dry-run of `request` (an apply, or a create under a generated name) judged against `live`:
   * undefined when the answer is not kept (a Secret, or a live object without a uid and resourceVersion).
   */
  keyOf(verb: "apply" | "create", fieldManager: string, live: KubeObject, request: KubeObject): string | undefined {
    const { uid, resourceVersion } = live.metadata;
    if (!uid || !resourceVersion || isSecret(live) || isSecret(request)) return undefined;
    const hash = createHash("sha256").update(JSON.stringify(request)).digest("base64url");
    return `${verb}|${fieldManager}|${uid}|${resourceVersion}|${hash}`;
  }

  /** The kept answer, a copy of it; a hit counts as the most recently used. */
  get(key: string): KubeObject | undefined {
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (this.now() - kept.at < this.ttlMs) return kept.answer;
    this.kept.delete(key);
    return undefined;
  }

  set(key: string, answer: KubeObject): void {
    this.kept.set(key, { answer, at: this.now() });
  }

  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
  }
}
