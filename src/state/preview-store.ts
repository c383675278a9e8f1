// What the preview of one pull request keeps in Redis, under the queues' prefix,
// so the web process and the workers of every cluster see one state:
//
//   <prefix>:preview:<owner/repo>#<n>:head             the latest head commit: older jobs end early
//   <prefix>:preview:<owner/repo>#<n>:<head>:plan      which clusters were asked (and their job ids),
//                                                      and the rows of refused targets
//   <prefix>:preview:<owner/repo>#<n>:<head>:results   hash: cluster -> its PreviewReports and unchanged targets
//   <prefix>:preview:<owner/repo>#<n>:<head>:changed   hash: cluster -> its changed targets, while they are previewed
//   <prefix>:preview:<owner/repo>#<n>:lock             held while one job composes the comment and the check
//
// Reports are masked by the engine before they get here; every key expires
// after two weeks, so a pull request nobody pushes to leaves nothing behind.
import type { Redis } from "ioredis";
import type { PreviewReport } from "../model/preview-report.ts";

const TTL_SECONDS = 14 * 24 * 3600;

/** What was asked for one head: the clusters with a job, and the targets refused before any job. */
export interface PreviewPlan {
  base: string;
  head: string;
  /** Commits on the base branch that head lacks (compare's behind_by). */
  behindBy?: number;
  clusters: Record<string, { targets: string[]; jobId: string }>;
  /** Failed rows of targets whose cluster the registry refuses: nothing was read from it. */
  refused: PreviewReport[];
}

/** One cluster's answer for one head. */
export interface ClusterPreview {
  previews: PreviewReport[];
  /** Targets whose render is the same in base and head. */
  unchanged: string[];
}

export interface PreviewStore {
  /** The lock's key, for withRedisLock. */
  readonly lockKey: string;
  /** Records `head` as the latest and returns the one it replaces. */
  setLatest(head: string): Promise<string | undefined>;
  latest(): Promise<string | undefined>;
  /** A new plan for `plan.head`; its earlier results are dropped (a refresh starts afresh). */
  startPlan(plan: PreviewPlan): Promise<void>;
  plan(head: string): Promise<PreviewPlan | undefined>;
  saveChanged(head: string, cluster: string, targets: string[]): Promise<void>;
  changed(head: string, cluster: string): Promise<string[] | undefined>;
  saveResult(head: string, cluster: string, result: ClusterPreview): Promise<void>;
  results(head: string): Promise<Map<string, ClusterPreview>>;
}

/** The store of pull request `number` of `repo` (owner/name). */
export function previewStore(params: { redis: Redis; prefix: string; repo: string; number: number }): PreviewStore {
  const { redis } = params;
  const stem = `${params.prefix}:preview:${params.repo.toLowerCase()}#${params.number}`;
  const of = (head: string, what: string) => `${stem}:${head}:${what}`;
  return {
    lockKey: `${stem}:lock`,
    setLatest: async (head) => (await redis.set(`${stem}:head`, head, "EX", TTL_SECONDS, "GET")) ?? undefined,
    latest: async () => (await redis.get(`${stem}:head`)) ?? undefined,
    async startPlan(plan) {
      await redis
        .multi()
        .del(of(plan.head, "results"), of(plan.head, "changed"))
        .set(of(plan.head, "plan"), JSON.stringify(plan), "EX", TTL_SECONDS)
        .exec();
    },
    async plan(head) {
      const text = await redis.get(of(head, "plan"));
      return text ? (JSON.parse(text) as PreviewPlan) : undefined;
    },
    async saveChanged(head, cluster, targets) {
      await redis
        .multi()
        .hset(of(head, "changed"), cluster, JSON.stringify(targets))
        .expire(of(head, "changed"), TTL_SECONDS)
        .exec();
    },
    async changed(head, cluster) {
      const text = await redis.hget(of(head, "changed"), cluster);
      return text ? (JSON.parse(text) as string[]) : undefined;
    },
    async saveResult(head, cluster, result) {
      await redis
        .multi()
        .hset(of(head, "results"), cluster, JSON.stringify(result))
        .expire(of(head, "results"), TTL_SECONDS)
        .exec();
    },
    async results(head) {
      const all = await redis.hgetall(of(head, "results"));
      return new Map(Object.entries(all).map(([cluster, text]) => [cluster, JSON.parse(text) as ClusterPreview]));
    },
  };
}
