// Webhook payloads from @octokit/webhooks-examples (GitHub's own samples),
// moved to the test repository and installation: the shape stays GitHub's,
// only the names, ids and commits are ours.
import { createRequire } from "node:module";

const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as Array<{
  name: string;
  examples: Array<Record<string, unknown>>;
}>;

function example(name: string, pick: (e: Record<string, unknown>) => boolean): Record<string, unknown> {
  const found = examples.find((e) => e.name === name)?.examples.find(pick);
  if (!found) throw new Error(`no ${name} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}

export interface PayloadRepo {
  owner: string;
  repo: string;
  installationId: number;
}

const repository = (r: PayloadRepo) => ({
  id: 1296269,
  node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
  name: r.repo,
  full_name: `${r.owner}/${r.repo}`,
  private: true,
});

/** `installation` with `action` created, deleted, suspend or unsuspend, on the one test repository. */
export function installationPayload(r: PayloadRepo, action: "created" | "deleted") {
  const payload = example("installation", (e) => e.action === action);
  const installation = payload.installation as Record<string, unknown>;
  installation.id = r.installationId;
  (installation.account as Record<string, unknown>).login = r.owner;
  payload.repositories = [repository(r)];
  (payload.sender as Record<string, unknown>).login = "alice";
  return payload;
}

/** `installation_repositories` removed (or added) for the test repository. */
export function installationRepositoriesPayload(r: PayloadRepo, action: "added" | "removed") {
  const payload = example("installation_repositories", (e) => e.action === action);
  (payload.installation as Record<string, unknown>).id = r.installationId;
  payload.repositories_added = action === "added" ? [repository(r)] : [];
  payload.repositories_removed = action === "removed" ? [repository(r)] : [];
  (payload.sender as Record<string, unknown>).login = "alice";
  return payload;
}

/** A push to the default branch `main` of one commit with the given changed files. */
export function pushPayload(
  r: PayloadRepo,
  push: { before: string; after: string; added?: string[]; modified?: string[]; removed?: string[]; ref?: string },
) {
  const payload = example("push", (e) => e.ref === "refs/heads/master");
  payload.ref = push.ref ?? "refs/heads/main";
  payload.before = push.before;
  payload.after = push.after;
  payload.created = false;
  payload.forced = false;
  payload.deleted = false;
  payload.installation = { id: r.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  const repo = payload.repository as Record<string, unknown>;
  Object.assign(repo, {
    name: r.repo,
    full_name: `${r.owner}/${r.repo}`,
    default_branch: "main",
    master_branch: "main",
  });
  Object.assign(repo.owner as Record<string, unknown>, { name: r.owner, login: r.owner });
  const commit = {
    ...(payload.commits as Array<Record<string, unknown>>)[0],
    id: push.after,
    added: push.added ?? [],
    modified: push.modified ?? [],
    removed: push.removed ?? [],
  };
  payload.commits = [commit];
  payload.head_commit = commit;
  (payload.sender as Record<string, unknown>).login = "alice";
  return payload;
}

/** `pull_request` closed (merged or not) for a pull request of the fake repository, from its head branch. */
export function pullRequestClosedPayload(
  r: PayloadRepo,
  pr: { number: number; headRef: string; merged: boolean; mergeCommitSha?: string },
) {
  const payload = example("pull_request", (e) => e.action === "closed");
  payload.number = pr.number;
  payload.installation = { id: r.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  const repo = payload.repository as Record<string, unknown>;
  Object.assign(repo, { name: r.repo, full_name: `${r.owner}/${r.repo}`, default_branch: "main" });
  Object.assign(repo.owner as Record<string, unknown>, { login: r.owner });
  const pull = payload.pull_request as Record<string, unknown>;
  Object.assign(pull, {
    number: pr.number,
    state: "closed",
    merged: pr.merged,
    merge_commit_sha: pr.mergeCommitSha ?? null,
  });
  const head = pull.head as Record<string, unknown>;
  head.ref = pr.headRef;
  head.repo = structuredClone(repo);
  (pull.base as Record<string, unknown>).ref = "main";
  (payload.sender as Record<string, unknown>).login = "alice";
  return payload;
}

/** `issue_comment` created on issue (or pull request) `number` of the fake repository, with its body and the comment's. */
export function issueCommentPayload(
  r: PayloadRepo,
  comment: { number: number; issueBody: string; body: string; author: string; pullRequest?: boolean },
) {
  const payload = example("issue_comment", (e) => e.action === "created");
  payload.installation = { id: r.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  const repo = payload.repository as Record<string, unknown>;
  Object.assign(repo, { name: r.repo, full_name: `${r.owner}/${r.repo}`, default_branch: "main" });
  Object.assign(repo.owner as Record<string, unknown>, { login: r.owner });
  const issue = payload.issue as Record<string, unknown>;
  Object.assign(issue, { number: comment.number, body: comment.issueBody });
  if (comment.pullRequest)
    issue.pull_request = { url: `https://api.github.com/repos/${r.owner}/${r.repo}/pulls/${comment.number}` };
  const body = payload.comment as Record<string, unknown>;
  body.body = comment.body;
  Object.assign(body.user as Record<string, unknown>, { login: comment.author, type: "User" });
  Object.assign(payload.sender as Record<string, unknown>, { login: comment.author, type: "User" });
  return payload;
}

/** `issues` edited on issue `number` of the fake repository: the body `before` the edit (changes.body.from) and after it. */
export function issuesEditedPayload(
  r: PayloadRepo,
  edit: { number: number; before: string; after: string; sender: string },
) {
  const payload = example("issues", (e) => e.action === "edited");
  payload.installation = { id: r.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  const repo = payload.repository as Record<string, unknown>;
  Object.assign(repo, { name: r.repo, full_name: `${r.owner}/${r.repo}`, default_branch: "main" });
  Object.assign(repo.owner as Record<string, unknown>, { login: r.owner });
  const issue = payload.issue as Record<string, unknown>;
  Object.assign(issue, { number: edit.number, body: edit.after });
  delete issue.pull_request;
  payload.changes = { body: { from: edit.before } };
  Object.assign(payload.sender as Record<string, unknown>, { login: edit.sender, type: "User" });
  return payload;
}
