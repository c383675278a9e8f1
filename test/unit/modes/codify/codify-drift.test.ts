// Codify mode's pull request, as the repository sees it: drift Git can hold
// becomes one PR editing the file it came from; drift nothing could codify
// opens no PR, and the check run lists why per object. The scan is built
// in-process on a small plain repository, with the pairings a scan would hand over.
import { realpath } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { targetSchema } from "../../../../src/config/target-schema.ts";
import { trackingLabel } from "../../../../src/config/tracking-label.ts";
import { finalizeDesired } from "../../../../src/desired/finalize-desired.ts";
import { renderTarget } from "../../../../src/desired/render-target.ts";
import { buildReport, type Pairing } from "../../../../src/drift/build-report.ts";
import type { ResourceIndex } from "../../../../src/live/discovery.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { codifyDrift } from "../../../../src/modes/codify/codify-drift.ts";
import type { ScanResult } from "../../../../src/stages/scan/scan-target.ts";
import { headSha, owner, pullReply, repo, repoPath, treeSha } from "../../../helpers/github/responses.ts";
import { useGitHubMock } from "../../../helpers/github-mock.ts";
import { tempRepo } from "../../desired/temp-repo.ts";
import { policyFor } from "../../drift/drift-fixtures.ts";

const github = useGitHubMock();
const target = targetSchema.parse({
  name: "shop",
  cluster: "prod",
  path: "manifests",
  namespace: "shop",
  mode: "codify",
});
const branch = "undrift/codify/shop";
const deleting = { deletionTimestamp: "2026-12-06T05:00:00Z", finalizers: ["example.com/hold"] };

const configMap = (name: string, data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop", labels: { "undrift.dev/target": "shop" }, ...meta },
  data,
});

/** A scan of one ConfigMap whose LOG_LEVEL a person set to debug (its live side carrying `meta`), plus `more` pairings. */
async function scanOf(meta: Record<string, unknown>, more: Pairing[] = []): Promise<ScanResult> {
  const repoDir = await realpath(
    await tempRepo({
      "manifests/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  LOG_LEVEL: info\n",
    }),
  );
  const rendered = await renderTarget({ repoDir, target });
  const scopeOf = () => "Namespaced" as const;
  const desired = finalizeDesired({
    objects: rendered.objects,
    namespace: "shop",
    trackingLabel: trackingLabel(target),
    scopeOf,
  });
  const live = configMap("app", { LOG_LEVEL: "debug" }, meta);
  const change = { path: "/data/LOG_LEVEL", desired: "info", live: "debug", manager: "kubectl-patch" };
  const wouldBe = desired[0]!.object;
  const pairings: Pairing[] = [
    {
      desired: desired[0]!,
      live,
      comparison: { changes: [change], needsDryRun: false, needsDefaults: false, live, wouldBe },
    },
    ...more,
  ];
  const report = buildReport({ target: "shop", revision: headSha, pairings, problems: [] });
  const config = { targets: [target] } as ScanResult["config"];
  // Codify reads only which kinds are namespaced from discovery, and never the cluster client.
  const index = { scopeOf } as unknown as ResourceIndex;
  return {
    repoDir,
    config,
    target,
    report,
    desired,
    pairings,
    index,
    renderer: "plain",
    policy: await policyFor(),
    skipped: [],
  } as unknown as ScanResult;
}

const codify = (scan: ScanResult) =>
  codifyDrift({
    octokit: github.octokit(),
    owner,
    repo,
    scan,
    repoDir: scan.repoDir,
    cluster: "prod",
    base: { branch: "main", sha: headSha, treeSha },
    pullRequests: { labels: [], reviewers: [] },
  });

describe("codify mode's pull request", () => {
  it("opens no PR when nothing of the drift could be codified, and the check run says why per object", async () => {
    const result = await codify(await scanOf(deleting));
    expect(github.requests).toEqual([]);
    expect(result.pullRequest).toBeUndefined();
    expect(result.lines.slice(0, 2)).toEqual([
      "Nothing of this drift could be codified, so there is no pull request:",
      "",
    ]);
    expect(result.lines[2]).toMatch(/^- `v1 ConfigMap shop\/app`: .*deleted/);
    expect(result.done).toEqual([]);
  });

  it("opens one PR editing the file the object came from, and counts what it left out", async () => {
    const strayBeingDeleted: Pairing = { live: configMap("stray", { owner: "alice" }, deleting) };
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { head: `${owner}:${branch}` },
      reply: { body: [] },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/trees`,
      body: (json) => {
        const tree = (json as { tree: Array<{ path: string; content: string }> }).tree;
        return (
          tree.length === 1 && tree[0]?.path === "manifests/config.yaml" && tree[0].content.includes("LOG_LEVEL: debug")
        );
      },
      reply: { status: 201, body: { sha: "1111111111111111111111111111111111111111", tree: [] } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/commits`,
      body: { parents: [headSha] },
      reply: { status: 201, body: { sha: "2222222222222222222222222222222222222222" } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/refs`,
      body: { ref: `refs/heads/${branch}` },
      reply: { status: 201, body: {} },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      body: { head: branch, title: "undrift: codify drift of shop from prod" },
      reply: { status: 201, body: pullReply({ number: 12, head: branch }) },
    });
    const result = await codify(await scanOf({}, [strayBeingDeleted]));
    expect(result.lines).toEqual([
      "Pull request: #12 https://github.com/acme/gitops/pull/12",
      "1 object(s) could not be codified; the pull request lists why.",
    ]);
    expect(result.done.map((d) => d.event)).toEqual(["pr-opened"]);
  });
});
