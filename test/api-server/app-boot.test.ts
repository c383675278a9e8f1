// The resync at boot: what happened while the web process was down (a target
// removed from a config, another added) is caught up when it starts again, by
// listing the app's installations and their repositories (paginated) and
// reading each config; a repository whose config GitHub could not serve just
// then keeps its schedulers.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { listScanSchedulers } from "../../src/queue/list-scan-schedulers.ts";
import { syncSchedulers } from "../../src/queue/sync-schedulers.ts";
import { resyncAtBoot } from "../../src/server/boot/resync-at-boot.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { sha40 } from "../helpers/app-github-replies.ts";
import { type AppHarness, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const head = { sha: sha40("head"), treeSha: sha40("tree"), archive: Buffer.alloc(0) };
const minutes = 60_000;

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const installation = (id: number, login: string) => ({
  id,
  account: { login, id: id + 1, type: "Organization" },
  app_id: 4242,
  target_type: "Organization",
  suspended_at: null,
});
const repository = (id: number, owner: string, name: string) => ({
  id,
  name,
  full_name: `${owner}/${name}`,
  private: true,
});

describe("the resync at boot", () => {
  it("removes the schedulers of targets gone while it was down, adds new ones, and keeps those whose config GitHub could not serve", async () => {
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/*"] } } });
    const gh = fakeRepo({ github, head });
    const other = fakeRepo({ github, repo: "other-gitops", head });
    const target = (name: string) => ({ name, cluster: "test", path: "manifests", namespace: "default" });

    // Before the restart: acme/gitops has `old`, acme/other-gitops has `steady`, acme/gone (uninstalled since) has `x`.
    await syncSchedulers({
      queues: h.redis.queues,
      repos: [
        { installationId: gh.installationId, repo: "acme/gitops", scheduleMs: 15 * minutes, targets: [target("old")] },
        {
          installationId: gh.installationId,
          repo: "acme/other-gitops",
          scheduleMs: 15 * minutes,
          targets: [target("steady")],
        },
        { installationId: 1234, repo: "acme/gone", scheduleMs: 15 * minutes, targets: [target("x")] },
      ],
    });
    await h.redis.queues.scan("test").obliterate({ force: true });

    // The app's installations, two pages; the second is an installation on another account with no repositories.
    github.expect({
      method: "GET",
      path: "/app/installations",
      reply: {
        body: [installation(gh.installationId, "acme")],
        headers: { link: '<https://api.github.com/app/installations?per_page=100&page=2>; rel="next"' },
      },
    });
    github.expect({
      method: "GET",
      path: "/app/installations",
      query: { page: 2 },
      reply: { body: [installation(777, "someone-else")] },
    });
    gh.expectToken();
    github.expect({
      method: "POST",
      path: "/app/installations/777/access_tokens",
      reply: { status: 201, body: { token: "ghs_other", expires_at: new Date(Date.now() + 3600_000).toISOString() } },
    });
    github.expect({
      method: "GET",
      path: "/installation/repositories",
      reply: {
        body: {
          total_count: 2,
          repositories: [repository(1, "acme", "gitops"), repository(2, "acme", "other-gitops")],
        },
      },
    });
    github.expect({
      method: "GET",
      path: "/installation/repositories",
      reply: { body: { total_count: 0, repositories: [] } },
    });
    // This repository names its config `.yaml`: found after `.yml` is not.
    gh.expectConfig(stringify({ targets: [target("new")] }), { file: ".github/undrift.yaml" });
    // GitHub fails on the other repository's config: its schedulers must survive.
    github.expect({
      method: "GET",
      path: "/repos/acme/other-gitops/contents/.github/undrift.yml",
      reply: { status: 500, body: { message: "Server Error" } },
    });

    const changes = await resyncAtBoot({
      deps: { queues: h.redis.queues, registry: h.registry },
      probot: h.probot,
      log: h.redis.log,
    });
    expect(changes).toMatchObject({ created: ["acme/gitops#new"], removed: ["acme/gitops#old", "acme/gone#x"] });
    expect((await listScanSchedulers(h.redis.queues)).map((x) => x.id).sort()).toEqual([
      "acme/gitops#new",
      "acme/other-gitops#steady",
    ]);
    // The new target is scanned at once; nothing else is.
    const waiting = await h.redis.queues.scan("test").getWaiting();
    expect(waiting.map((job) => job.data)).toEqual([
      { installationId: gh.installationId, repo: "acme/gitops", target: "new", cluster: "test", reason: "config" },
    ]);
    expect(github.writes().map((r) => r.operationId)).toEqual([
      "apps/create-installation-access-token",
      "apps/create-installation-access-token",
    ]);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.map((a) => [a.repo, a.outcome])).toEqual([
      ["acme/gitops", "created new; removed old"],
      ["acme/gone", "removed x"],
    ]);
    expect(other.state.checkRuns).toEqual([]);
  });
});
