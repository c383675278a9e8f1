// The cluster sessions of a worker process: jobs of one cluster that run at the
// same time share one session (discovery once, one LIST per kind for all their
// targets), and the session ends with the last of them. A session older than
// `maxAgeMs` takes no new jobs, so under steady load no scan reads LISTs much
// older than itself. Jobs never wait for each other: sharing is only of what
// is already being asked.
//
//   const lease = pool.acquire("prod", kubeConfig);
//   try { await runScan({ ..., session: lease.session }) } finally { lease.release() }
import type { KubeConfig } from "@kubernetes/client-node";
import { ClusterSession } from "./cluster-session.ts";

export interface SessionLease {
  session: ClusterSession;
  /** Ends this job's use; the session is dropped when no job uses it. Calling it twice is harmless. */
  release(): void;
}

interface Entry {
  session: ClusterSession;
  users: number;
  since: number;
}

export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: { maxAgeMs?: number; now?: () => number } = {}) {
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** A lease on the cluster's session; `kubeConfig` makes a new one when none serves. */
  acquire(cluster: string, kubeConfig: KubeConfig): SessionLease {
    let entry = this.entries.get(cluster);
    if (!entry || this.now() - entry.since >= this.maxAgeMs) {
      entry = { session: new ClusterSession(kubeConfig, { shareLists: true }), users: 0, since: this.now() };
      this.entries.set(cluster, entry);
    }
    const held = entry;
    held.users++;
    let released = false;
    return {
      session: held.session,
      release: () => {
        if (released) return;
        released = true;
        held.users--;
        if (held.users === 0 && this.entries.get(cluster) === held) this.entries.delete(cluster);
      },
    };
  }
}
