// The cluster sessions of a worker process: jobs of one cluster that run at the
// same time share one session (discovery once, one LIST per kind for all their
// targets), and the session ends with the last of them. A session older than
// `maxAgeMs` takes no new jobs, so under steady load no scan reads LISTs much
// older than itself. Jobs never wait for each other: sharing is only of what
// is already being asked.
//
// With `watch`, the pool keeps a WatchCache per cluster for the life of the
// process, and every session answers its LISTs from it when it is current:
// a scan of a cluster whose watches are open sends no LIST at all.
//
//   const lease = pool.acquire("prod", kubeConfig);
//   try { await runScan({ ..., session: lease.session }) } finally { lease.release() }
import type { KubeConfig } from "@kubernetes/client-node";
import { ClusterSession } from "./cluster-session.ts";
import { WatchCache } from "./watch-cache.ts";
import type { WatchChange } from "./watch-kind.ts";

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
  private readonly watch: (cluster: string) => boolean;
  private readonly caches = new Map<string, WatchCache>();
  private readonly onChange: ((cluster: string, change: Parameters<WatchChange>[0]) => void) | undefined;

  constructor(
    options: {
      maxAgeMs?: number;
      now?: () => number;
      /** Whether to watch a cluster: always, or while this process holds its lease (only one worker watches). */
      watch?: boolean | ((cluster: string) => boolean);
      /** Every change a cluster's watches see (WatchTriggers queues the scans they call for). */
      onChange?: (cluster: string, change: Parameters<WatchChange>[0]) => void;
    } = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 30_000;
    this.now = options.now ?? Date.now;
    const watch = options.watch ?? false;
    this.watch = typeof watch === "function" ? watch : () => watch;
    this.onChange = options.onChange;
  }

  /** The cluster's watch cache, when the pool watches and one was started. */
  watches(cluster: string): WatchCache | undefined {
    return this.caches.get(cluster);
  }

  /** Stops the cluster's watches (its lease went to another process); its next session LISTs. */
  unwatch(cluster: string): void {
    this.caches.get(cluster)?.stop();
    this.caches.delete(cluster);
    // A session made on those watches would still answer from them: no new job takes it.
    this.entries.delete(cluster);
  }

  /** Stops every watch (the process is shutting down). */
  close(): void {
    for (const cache of this.caches.values()) cache.stop();
    this.caches.clear();
  }

  /** A lease on the cluster's session; `kubeConfig` makes a new one when none serves. */
  acquire(cluster: string, kubeConfig: KubeConfig): SessionLease {
    let entry = this.entries.get(cluster);
    if (!entry || this.now() - entry.since >= this.maxAgeMs) {
      let watches = this.caches.get(cluster);
      if (!this.watch(cluster)) watches = undefined;
      else if (!watches) {
        const onChange = this.onChange;
        watches = new WatchCache({
          kubeConfig,
          ...(onChange ? { onChange: (change: Parameters<WatchChange>[0]) => onChange(cluster, change) } : {}),
        });
        this.caches.set(cluster, watches);
      }
      const session = new ClusterSession(kubeConfig, { shareLists: true, ...(watches ? { watches } : {}) });
      entry = { session, users: 0, since: this.now() };
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
