// One repository on GitHub as the app meets it, over the OpenAPI-checked mock:
// its state (check runs, issues, pull requests, comments) changes as the app
// writes, and every GET answers the way GitHub does, with an ETag of what it
// returns and a 304 when the client's If-None-Match still matches. Tests
// declare each phase's calls with exact counts, so requests can be counted.
//
//   const gh = fakeRepo({ github, commit, configText });
//   gh.expectToken(); gh.expectHead(); gh.expectTarball(); gh.expectCheckRuns({ list: 1, create: 1 });
import { expectPullCalls, type PullCounts } from "./app-github-pulls.ts";
import { conditional, issueNumber, notFound, pullAsIssue } from "./app-github-replies.ts";
import type { GitHubMock, LoggedRequest } from "./github-mock.ts";

export interface RepoCommit {
  sha: string;
  treeSha: string;
  /** GitHub's tarball of the commit (git archive with the `<owner>-<repo>-<sha>/` prefix). */
  archive: Buffer;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string;
  external_id: string;
  html_url: string;
  output: { title: string; summary: string; text: string | null; annotations_count: number };
  annotations: unknown[];
}

export interface FakeIssue {
  id: number;
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: Array<{ name: string }>;
  html_url: string;
  user: { login: string };
  pull_request?: { url: string };
}

export interface FakePull {
  id: number;
  number: number;
  state: "open" | "closed";
  title: string;
  body: string;
  html_url: string;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  labels: string[];
  reviewers: string[];
}

export interface FakeRepoState {
  checkRuns: FakeCheckRun[];
  issues: FakeIssue[];
  pulls: FakePull[];
  comments: Array<{ issue: number; body: string }>;
  trees: Array<{ base_tree: string; tree: Array<{ path: string; content?: string; sha?: string | null }> }>;
  commits: Array<{ message: string; tree: string; parents: string[] }>;
  refs: Map<string, string>;
}

export const BOT = "undrift-test[bot]";

export interface FakeRepo {
  owner: string;
  repo: string;
  installationId: number;
  state: FakeRepoState;
  /** The default branch's head; change it to model a push. */
  head: RepoCommit;
  expectToken(times?: number): void;
  expectApp(): void;
  /**
   * The config through Probot's loader (raw contents); `null` answers 404 under both names, and the owner's
   * `.github` repository is asked too. With `file: ".github/undrift.yaml"`, `.yml` is missing first.
   */
  expectConfig(text: string | null, options?: { ref?: string; times?: number; file?: string }): void;
  /** The repository (for its default branch) and the branch head, each `times` times, conditional. */
  expectHead(times?: number): void;
  expectBranch(times?: number): void;
  expectTarball(commit?: RepoCommit): void;
  /** `update` is of the last check run created, or with `name` of the one of that name. */
  expectCheckRuns(counts: { list?: number; create?: number; update?: number; name?: string }): void;
  /**
   * `get` reads one issue (GET /issues/{n}), as the dashboard does before it unticks boxes, and a tracking issue's
   * lookup by its kept number. `listPages`: each list may read up to that many pages (default 1), so `list` is the
   * fewest lists, `list × listPages` the most.
   */
  expectIssues(counts: {
    list?: number;
    listPages?: number;
    get?: number;
    create?: number;
    update?: number;
    comment?: number;
  }): void;
  expectPulls(counts: PullCounts): void;
}

export function fakeRepo(params: {
  github: GitHubMock;
  owner?: string;
  repo?: string;
  installationId?: number;
  head: RepoCommit;
  defaultBranch?: string;
}): FakeRepo {
  const { github } = params;
  const owner = params.owner ?? "acme";
  const repo = params.repo ?? "gitops";
  const branch = params.defaultBranch ?? "main";
  const base = `/repos/${owner}/${repo}`;
  const html = `https://github.com/${owner}/${repo}`;
  const state: FakeRepoState = {
    checkRuns: [],
    issues: [],
    pulls: [],
    comments: [],
    trees: [],
    commits: [],
    refs: new Map(),
  };
  let nextId = 9000;
  const fake: FakeRepo = {
    owner,
    repo,
    installationId: params.installationId ?? 957387,
    state,
    head: params.head,

    expectToken(times = 1) {
      github.expect({
        method: "POST",
        path: `/app/installations/${fake.installationId}/access_tokens`,
        times,
        reply: {
          status: 201,
          body: {
            token: "ghs_0123456789abcdefghijklmnopqrstuvwxyz",
            expires_at: new Date(Date.now() + 3600_000).toISOString(),
            permissions: { checks: "write", contents: "write", issues: "write", pull_requests: "write" },
            repository_selection: "all",
          },
        },
      });
    },

    expectApp() {
      github.expect({
        method: "GET",
        path: "/app",
        reply: { body: { id: 4242, slug: "undrift-test", name: "undrift test", owner: { login: owner } } },
      });
    },

    expectConfig(text, options = {}) {
      const times = options.times ?? 1;
      const query = options.ref ? { ref: options.ref } : undefined;
      const file = options.file ?? ".github/undrift.yml";
      const missing = (name: string) => {
        github.expect({
          method: "GET",
          path: `${base}/contents/${name}`,
          times,
          ...(query ? { query } : {}),
          reply: notFound,
        });
        github.expect({ method: "GET", path: `/repos/${owner}/.github/contents/${name}`, times, reply: notFound });
      };
      const names = [".github/undrift.yml", ".github/undrift.yaml"];
      for (const name of names.slice(0, text === null ? names.length : names.indexOf(file))) missing(name);
      if (text === null) return;
      github.expect({
        method: "GET",
        path: `${base}/contents/${file}`,
        times,
        ...(query ? { query } : {}),
        reply: { body: text, headers: { "content-type": "application/vnd.github.raw; charset=utf-8" } },
      });
    },

    expectHead(times = 1) {
      github.expect({
        method: "GET",
        path: base,
        times,
        reply: conditional(() => ({
          id: 1296269,
          name: repo,
          full_name: `${owner}/${repo}`,
          default_branch: branch,
          private: true,
        })),
      });
      fake.expectBranch(times);
    },

    expectBranch(times = 1) {
      github.expect({
        method: "GET",
        path: `${base}/branches/${branch}`,
        times,
        reply: conditional(() => ({
          name: branch,
          commit: { sha: fake.head.sha, commit: { tree: { sha: fake.head.treeSha } } },
          protected: false,
        })),
      });
    },

    expectTarball(commit = fake.head) {
      const location = `/${owner}/${repo}/legacy.tar.gz/${commit.sha}`;
      github.expect({
        method: "GET",
        path: `${base}/tarball/${commit.sha}`,
        reply: { status: 302, headers: { location: `https://codeload.github.com${location}` } },
      });
      github.expect({
        method: "GET",
        origin: "https://codeload.github.com",
        path: location,
        reply: { body: commit.archive, headers: { "content-type": "application/x-gzip" } },
      });
    },

    expectCheckRuns(counts) {
      if (counts.list) {
        const sha = fake.head.sha;
        github.expect({
          method: "GET",
          path: `${base}/commits/${sha}/check-runs`,
          times: counts.list,
          reply: conditional((req) => {
            const runs = state.checkRuns.filter(
              (run) => run.head_sha === sha && (!req.query.check_name || run.name === req.query.check_name),
            );
            return { total_count: runs.length, check_runs: runs.map(({ annotations: _, ...run }) => run) };
          }),
        });
      }
      if (counts.create) {
        github.expect({
          method: "POST",
          path: `${base}/check-runs`,
          times: counts.create,
          reply: (req) => {
            const body = req.json as Record<string, unknown> & { output: Record<string, unknown> };
            const id = nextId++;
            const run: FakeCheckRun = {
              id,
              name: String(body.name),
              head_sha: String(body.head_sha),
              status: String(body.status),
              conclusion: String(body.conclusion),
              external_id: String(body.external_id ?? ""),
              html_url: `${html}/runs/${id}`,
              output: {
                title: String(body.output.title),
                summary: String(body.output.summary),
                text: (body.output.text as string | undefined) ?? null,
                annotations_count: ((body.output.annotations as unknown[] | undefined) ?? []).length,
              },
              annotations: (body.output.annotations as unknown[] | undefined) ?? [],
            };
            state.checkRuns.push(run);
            return { status: 201, body: run };
          },
        });
      }
      if (counts.update) {
        const target = counts.name ? state.checkRuns.find((r) => r.name === counts.name) : state.checkRuns.at(-1);
        github.expect({
          method: "PATCH",
          path: `${base}/check-runs/${target?.id ?? nextId}`,
          times: counts.update,
          reply: (req) => {
            const id = Number(req.path.split("/").at(-1));
            const run = state.checkRuns.find((r) => r.id === id);
            if (!run) return notFound;
            const body = req.json as Record<string, unknown> & { output: Record<string, unknown> };
            run.conclusion = String(body.conclusion);
            run.external_id = String(body.external_id ?? "");
            run.output.title = String(body.output.title);
            run.output.summary = String(body.output.summary);
            run.output.text = (body.output.text as string | undefined) ?? null;
            return { body: run };
          },
        });
      }
    },

    expectIssues(counts) {
      if (counts.list) {
        github.expect({
          method: "GET",
          path: `${base}/issues`,
          times: counts.list * (counts.listPages ?? 1),
          atLeast: counts.list,
          reply: conditional((req) => {
            const all = [...state.issues, ...state.pulls.map((pr) => pullAsIssue(pr, BOT))].filter(
              (issue) => !req.query.creator || issue.user.login === req.query.creator,
            );
            // One page of `per_page` (GitHub's default 30), as GitHub pages it.
            const perPage = Number(req.query.per_page ?? 30);
            const page = Number(req.query.page ?? 1);
            return all.sort((a, b) => a.number - b.number).slice((page - 1) * perPage, page * perPage);
          }),
        });
      }
      if (counts.create) {
        github.expect({
          method: "POST",
          path: `${base}/issues`,
          times: counts.create,
          reply: (req) => {
            const body = req.json as { title: string; body: string; labels?: string[] };
            const number = issueNumber(state);
            const issue: FakeIssue = {
              id: nextId++,
              number,
              title: body.title,
              body: body.body,
              state: "open",
              labels: (body.labels ?? []).map((name) => ({ name })),
              html_url: `${html}/issues/${number}`,
              user: { login: BOT },
            };
            state.issues.push(issue);
            return { status: 201, body: issue };
          },
        });
      }
      const issuePath = (req: LoggedRequest) => Number(req.path.split("/")[5]);
      if (counts.get) {
        github.expect({
          method: "GET",
          path: `${base}/issues/${state.issues.at(-1)?.number ?? issueNumber(state)}`,
          times: counts.get,
          reply: (req) => {
            const issue = state.issues.find((i) => i.number === issuePath(req));
            return issue ? { body: issue } : notFound;
          },
        });
      }
      if (counts.update) {
        github.expect({
          method: "PATCH",
          path: `${base}/issues/${state.issues.at(-1)?.number ?? issueNumber(state)}`,
          times: counts.update,
          reply: (req) => {
            const issue = state.issues.find((i) => i.number === issuePath(req));
            if (!issue) return notFound;
            const body = req.json as { title?: string; body?: string; state?: "open" | "closed"; labels?: string[] };
            if (body.title !== undefined) issue.title = body.title;
            if (body.body !== undefined) issue.body = body.body;
            if (body.state !== undefined) issue.state = body.state;
            if (body.labels) issue.labels = body.labels.map((name) => ({ name }));
            return { body: issue };
          },
        });
      }
      if (counts.comment) {
        github.expect({
          method: "POST",
          path: `${base}/issues/${state.issues.at(-1)?.number ?? issueNumber(state)}/comments`,
          times: counts.comment,
          reply: (req) => {
            state.comments.push({ issue: issuePath(req), body: (req.json as { body: string }).body });
            return { status: 201, body: { id: nextId++ } };
          },
        });
      }
    },

    expectPulls(counts) {
      expectPullCalls({ github, base, html, state, nextId: () => nextId++, head: () => fake.head }, counts);
    },
  };
  return fake;
}
