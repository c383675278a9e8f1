// The dry-run twin of every GitHub write (STYLE habit 4, safe-settings'
// NopCommand): a writer decides from what it read, then each write goes
// through `request`, which records it and, unless this is a dry run, sends it.
// A dry run thus yields the same records as the real run, without a write.
// The route is named once, for the record and for octokit:
//
//   const writes = createWrites({ octokit, owner, repo, dryRun });
//   const run = await writes.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
//     { check_run_id: 7, status: "completed" }, { summary: "update check run undrift/infra on 4b825dc" });
//   writes.records; // [{ route: "PATCH /repos/...", summary: "update check run ..." }]
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** One write, as the CLI prints it and the audit log keeps it: the route and what it does. */
export interface WriteRecord {
  /** `PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}`. */
  route: string;
  /** `update check run undrift/infra on 4b825dc`. */
  summary: string;
}

// Octokit's own typing of a route, reached through its request function (instantiated at R).
declare const request: GitHubClient["request"];
type Call<R extends WriteRoute> = typeof request<R>;
type Without<T, K> = { [P in keyof T as P extends K ? never : P]: T[P] };

/** A repository route: every write undrift makes is one. */
export type WriteRoute = `${"POST" | "PATCH" | "PUT" | "DELETE"} /repos/{owner}/{repo}/${string}`;
/** The route's parameters but the repository's, which the writes add. */
export type RouteParams<R extends WriteRoute> = Without<NonNullable<Parameters<Call<R>>[1]>, "owner" | "repo">;
/** What GitHub answers the route with. */
export type RouteData<R extends WriteRoute> = Awaited<ReturnType<Call<R>>>["data"];

export interface RequestOptions<F> {
  /** The record's summary. */
  summary: string;
  /** What a failure is named after (`acme/gitops: <step>: 403 ...`); the summary unless given. */
  step?: string;
  /** Answers a failure the write expects (422: it exists already): its result stands for GitHub's, or it throws. */
  recover?: (error: unknown) => Promise<F>;
}

export interface Writes {
  readonly dryRun: boolean;
  readonly records: WriteRecord[];
  /** Records the write; sends it unless dry-running, when it resolves to undefined. */
  request<R extends WriteRoute, F = never>(
    route: R,
    params: RouteParams<R>,
    options: RequestOptions<F>,
  ): Promise<RouteData<R> | F | undefined>;
  /** Sends without a record: for the request that finishes a write already recorded (a `recover`). */
  send<R extends WriteRoute>(route: R, params: RouteParams<R>, step: string): Promise<RouteData<R>>;
}

export function createWrites(params: RepoRef & { octokit: GitHubClient; dryRun?: boolean | undefined }): Writes {
  const { octokit, owner, repo } = params;
  const records: WriteRecord[] = [];
  const dryRun = params.dryRun === true;
  const perform = async <R extends WriteRoute, F>(
    route: R,
    values: RouteParams<R>,
    step: string,
    recover?: (error: unknown) => Promise<F>,
  ) =>
    githubStep({
      repo: { owner, repo },
      step,
      run: async (): Promise<RouteData<R> | F> => {
        try {
          // The route's own parameters, with the repository added back: octokit's type for R exactly.
          const { data } = await octokit.request(route, { owner, repo, ...values } as Parameters<Call<R>>[1]);
          return data as RouteData<R>;
        } catch (error) {
          if (!recover) throw error;
          return recover(error);
        }
      },
    });
  return {
    dryRun,
    records,
    async request(route, values, options) {
      records.push({ route, summary: options.summary });
      if (dryRun) return undefined;
      return perform(route, values, options.step ?? options.summary, options.recover);
    },
    send: (route, values, step) => perform(route, values, step),
  };
}
