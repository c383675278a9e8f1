// Who changed it, in the app: drift made with kubectl on the real test
// cluster, the cluster's records of those writes in the worker's own Redis
// (under the queue prefix, written as the admission recorder writes them),
// and the outputs a person reads (check run, tracking issue, codify pull
// request, preview comment's drift-now, the audit entry) name the right person
// for the right field. A read of the records that fails costs the outputs
// their people, in one log line, never the scan.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { WriteRecord } from "../../src/model/write-record.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { writeRecords } from "../../src/state/write-records.ts";
import { attributeScan } from "../../src/worker/attribute-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { fakePullRequest } from "../helpers/app-github-preview.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { mergeRevertPr, openRevertPr } from "../helpers/app-revert-pr.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { memoryLog } from "../helpers/redis.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";
import { sampleReport } from "../unit/report/sample-report.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

const configMap = (name: string, key: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${key}: info\n`;

const openHarness = () =>
  openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });

/** Keeps a record of a write to a ConfigMap of the scenario, as the web process's recorder keeps it. */
/** What the recorder keeps of a patch of LOG_LEVEL: which field it changed, never the value. */
const LOG_LEVEL = ["/data/LOG_LEVEL"];

async function recordWrite(name: string, record: Partial<WriteRecord>): Promise<void> {
  await writeRecords({ redis: h!.redis.redis, prefix: h!.redis.prefix }).add({
    cluster: "test",
    object: { group: "", kind: "ConfigMap", namespace: s!.namespace, name },
    verb: "patch",
    username: "alice",
    groups: ["sre", "system:authenticated"],
    at: new Date().toISOString(),
    via: "admission",
    ...record,
  });
}

/** alice patches `settings`, the CI's service account patches `pipeline` with its own field manager, bob deletes `gone`. */
async function makeDrift(): Promise<void> {
  const ns = s!.namespace;
  await kubectl(["-n", ns, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
  await recordWrite("settings", { fieldManager: "kubectl-patch", sourceIP: "10.1.2.3", fields: LOG_LEVEL });
  await kubectl([
    "-n",
    ns,
    "patch",
    "configmap",
    "pipeline",
    "--field-manager=deployer",
    "-p",
    '{"data":{"STAGE":"canary"}}',
  ]);
  await recordWrite("pipeline", {
    username: "system:serviceaccount:ci:deployer",
    groups: ["system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"],
    fieldManager: "deployer",
    fields: ["/data/STAGE"],
  });
  await kubectl(["-n", ns, "delete", "configmap", "gone"]);
  await recordWrite("gone", { verb: "delete", username: "bob", groups: ["dev"] });
}

const files = {
  "manifests/settings.yaml": configMap("settings", "LOG_LEVEL"),
  "manifests/pipeline.yaml": configMap("pipeline", "STAGE"),
  "manifests/gone.yaml": configMap("gone", "KEY"),
};

describe("the app: who changed it", () => {
  it("names each field's person in the check run, the tracking issue and the audit trail, and who deleted a missing object", async () => {
    s = scenario({ files, target: { mode: "warn" } });
    await s.applyGit();
    const commit = await commitRepo(s.repoDir);
    h = await openHarness();
    await makeDrift();
    const gh = fakeRepo({ github, head: commit });

    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    expect(job?.returnvalue).toMatchObject({ summary: `${s.target}: 2 drifted, 1 missing` });

    const check = gh.state.checkRuns[0]?.output.text ?? "";
    const issue = gh.state.issues[0]?.body ?? "";
    for (const body of [check, issue]) {
      // The overview's Who column, then each object's table row: the person beside the manager that wrote the field.
      expect(body).toContain("| `kubectl-patch` by alice (sre) from 10.1.2.3 |");
      expect(body).toMatch(
        /\| `\/data\/LOG_LEVEL` \| `"info"` \| `"debug"` \| `kubectl-patch` by alice \(sre\) from 10\.1\.2\.3 \| /,
      );
      expect(body).toMatch(
        /\| `\/data\/STAGE` \| `"info"` \| `"canary"` \| `deployer` by system:serviceaccount:ci:deployer \| /,
      );
      expect(body).toMatch(
        /\| ConfigMap \| `[^`]+\/gone` \| missing \| [^|]+ \| \*whole object\* \| deleted by bob \(dev\) at \S+ \|/,
      );
      expect(body).toContain("The cluster recorded it deleted by bob (dev) at ");
    }

    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    const scan = audit.find((a) => a.event === "scan");
    // In the report's order (the manifests' files by name), each writer once with its field and time.
    expect(scan?.writers).toEqual([
      expect.stringMatching(new RegExp(`^ConfigMap/${s.namespace}/gone deleted by bob \\(dev\\) at \\S+$`)),
      expect.stringMatching(
        new RegExp(`^ConfigMap/${s.namespace}/pipeline:/data/STAGE by system:serviceaccount:ci:deployer at \\S+$`),
      ),
      expect.stringMatching(
        new RegExp(
          `^ConfigMap/${s.namespace}/settings:/data/LOG_LEVEL by alice \\(sre\\) at \\S+ from 10\\.1\\.2\\.3$`,
        ),
      ),
    ]);
  });

  it("names the person in the codify pull request's body", async () => {
    s = scenario({ files: { "manifests/settings.yaml": configMap("settings", "LOG_LEVEL") } });
    const configText = stringify({
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, mode: "codify" }],
    });
    s.write({ ".github/undrift.yml": configText });
    await s.applyGit();
    const commit = await commitRepo(s.repoDir);
    h = await openHarness();
    await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    await recordWrite("settings", { fieldManager: "kubectl-patch", fields: LOG_LEVEL });
    const gh = fakeRepo({ github, head: commit });

    gh.expectToken();
    gh.expectConfig(configText);
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    const body = gh.state.pulls[0]?.body ?? "";
    expect(body).toContain('| `/data/LOG_LEVEL` | `"info"` | `"debug"` | `kubectl-patch` by alice (sre) | ');
    expect(gh.state.checkRuns[0]?.output.text).toContain("`kubectl-patch` by alice (sre)");
  });

  it("names the person in the revert pull request's body, and in the comment once it is merged", async () => {
    let patchedAt = "";
    const ctx = await openRevertPr({
      github,
      files: { "manifests/settings.yaml": configMap("settings", "LOG_LEVEL") },
      drift: async (scenario) => {
        await kubectl([
          "-n",
          scenario.namespace,
          "patch",
          "configmap",
          "settings",
          "-p",
          '{"data":{"LOG_LEVEL":"debug"}}',
        ]);
        patchedAt = new Date().toISOString();
      },
      onOpen: (parts) => {
        s = parts.s;
        h = parts.h;
      },
      beforeScan: () => recordWrite("settings", { fieldManager: "kubectl-patch", at: patchedAt, fields: LOG_LEVEL }),
    });
    const { gh } = ctx;
    const body = gh.state.pulls[0]?.body ?? "";
    expect(body).toContain("**What merging will do**");
    expect(body).toContain('| `/data/LOG_LEVEL` | `"info"` | `"debug"` | `kubectl-patch` by alice (sre) | ');
    // Merged: the comment says what was applied, and whose drift it undid.
    const merge = await mergeRevertPr(ctx);
    expect(merge?.failedReason).toBeUndefined();
    expect(gh.state.comments[0]?.body ?? "").toContain(
      `- \`v1 ConfigMap ${ctx.s.namespace}/settings\`: configured \`/data/LOG_LEVEL\`; changed by alice (sre)`,
    );
  });

  it("names the person behind the drift the cluster already has in the preview comment", async () => {
    s = scenario({
      files: { "manifests/web.yaml": web, "manifests/settings.yaml": configMap("settings", "LOG_LEVEL") },
    });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/web.yaml": web.replace("replicas: 2 # Git says two", "replicas: 3") });
    const head = await commitRepo(s.repoDir);
    h = await openHarness();
    await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    await recordWrite("settings", { fieldManager: "kubectl-patch", fields: LOG_LEVEL });
    const gh = fakeRepo({ github, head: base });
    const pr = fakePullRequest({ github, gh, number: 7, base, head });

    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"), { ref: head.sha });
    pr.expectCompare(1, { behindBy: 0 });
    gh.expectTarball(head);
    gh.expectTarball(base);
    pr.expectComments({ list: 1, create: 1 });
    gh.head = head;
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("pull_request", pr.payload("opened"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    const body = pr.comments[0]?.body ?? "";
    expect(body).toContain("The cluster already differs from base");
    expect(body).toMatch(
      new RegExp(`- drifted \`v1 ConfigMap ${s.namespace}/settings\`: \`/data/LOG_LEVEL\` by alice \\(sre\\) at \\S+`),
    );
  });

  it("still posts the check run when the records cannot be read, without people, said in one log line", async () => {
    s = scenario({
      files: { "manifests/settings.yaml": configMap("settings", "LOG_LEVEL") },
      target: { mode: "warn" },
    });
    await s.applyGit();
    const commit = await commitRepo(s.repoDir);
    h = await openHarness();
    await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    // Not a sorted set: Redis answers the records' read with WRONGTYPE, as it would a key another program broke.
    await h.redis.redis.set(`${h.redis.prefix}:write-records:test:/ConfigMap/${s.namespace}/settings`, "x");
    const gh = fakeRepo({ github, head: commit });

    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    expect(job?.returnvalue).toMatchObject({ summary: `${s.target}: 1 drifted` });
    expect(gh.state.checkRuns[0]?.output.text).toContain(
      '| `/data/LOG_LEVEL` | `"info"` | `"debug"` | `kubectl-patch` | ',
    );
    expect(gh.state.checkRuns[0]?.output.text).not.toContain(" by ");
    const said = h.redis.log.entries.filter((e) => e.message.startsWith("attribution:"));
    expect(said).toEqual([
      {
        level: "warn",
        message: "attribution: the records of writes could not be read, so this report does not say who changed what",
        fields: expect.objectContaining({ repo: "acme/gitops", target: s.target, cluster: "test" }),
      },
    ]);
  });
});

describe("attributeScan", () => {
  it("gives the report back as it was, with one log line, when Redis cannot be reached", async () => {
    const connection = createRedisConnection({ role: "producer", url: "redis://127.0.0.1:1", log: memoryLog() });
    connection.on("error", () => {});
    const log = memoryLog();
    try {
      const report = sampleReport();
      const out = await attributeScan({
        deps: { queues: { connection, prefix: "undrift-test-unreachable" }, log },
        cluster: "test",
        report,
        job: { repo: "acme/gitops" },
      });
      expect(out).toBe(report);
      expect(log.entries.map((e) => [e.level, e.message])).toEqual([
        ["warn", "attribution: the records of writes could not be read, so this report does not say who changed what"],
      ]);
    } finally {
      connection.disconnect();
    }
  });
});
