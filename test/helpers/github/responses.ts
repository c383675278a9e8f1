// GitHub's answers, as small as the writers read them: the fields that matter
// for a test, the rest left out (responses are not checked against the description).
export const owner = "acme";
export const repo = "gitops";
export const repoPath = `/repos/${owner}/${repo}`;
export const headSha = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
export const otherSha = "9fb037999f264ba9a7fc6274d15fa3ae2ab98312";
export const treeSha = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";

export function checkRunReply(fields: {
  id?: number;
  name: string;
  external_id?: string | null;
  annotations?: number;
}) {
  const id = fields.id ?? 11;
  return {
    id,
    name: fields.name,
    head_sha: headSha,
    status: "completed",
    conclusion: "neutral",
    external_id: fields.external_id ?? null,
    html_url: `https://github.com/${owner}/${repo}/runs/${id}`,
    output: { title: "t", summary: "s", text: null, annotations_count: fields.annotations ?? 0 },
  };
}

export function issueReply(fields: {
  number: number;
  title?: string;
  body?: string | null;
  state?: "open" | "closed";
  labels?: string[];
  pullRequest?: boolean;
}) {
  return {
    id: 1000 + fields.number,
    number: fields.number,
    title: fields.title ?? "drift",
    body: fields.body ?? null,
    state: fields.state ?? "open",
    labels: (fields.labels ?? []).map((name) => ({ name })),
    html_url: `https://github.com/${owner}/${repo}/issues/${fields.number}`,
    ...(fields.pullRequest ? { pull_request: { url: "x" } } : {}),
  };
}

export function pullReply(fields: {
  number: number;
  title?: string;
  body?: string | null;
  head: string;
  base?: string;
}) {
  return {
    id: 2000 + fields.number,
    number: fields.number,
    state: "open",
    title: fields.title ?? "drift",
    body: fields.body ?? null,
    html_url: `https://github.com/${owner}/${repo}/pull/${fields.number}`,
    head: { ref: fields.head, sha: otherSha, repo: { full_name: `${owner}/${repo}` } },
    base: { ref: fields.base ?? "main", sha: headSha },
  };
}
