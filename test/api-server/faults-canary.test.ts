// A canary Secret through every sink: the target's Secret has one unique value
// in the cluster and another in Git, and is drifted. Scanned by the CLI (text,
// JSON, markdown), codified, reverted with --dry-run, and scanned by the app's
// worker (codify and warn modes: PR, issue and check run bodies). Neither value,
// plain or base64, may appear in any CLI output, any log line of the app
// (Probot's pino and the queue's), any Redis key or value under the test's
// prefix (job payloads and return values, the audit stream, ETags, snapshots'
// keys), the audit as `undrift audit` prints it, or any request sent to GitHub.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { formatAudit } from "../../src/cli/format-audit.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { dumpRedis } from "../helpers/redis-dump.ts";
import { kubectl, type Scenario, scenario, undrift } from "../helpers/scenario.ts";

const github = useGitHubMock();
const b64 = (s: string) => Buffer.from(s).toString("base64");
// Unique per run, so a hit can only be this test's value.
const live = `canary-live-${randomBytes(6).toString("hex")}`;
const git = `canary2-git-${randomBytes(6).toString("hex")}`;
const canaries = [live, git, b64(live), b64(git)];

/** The canaries found in `text`, by which form: empty when none leaked. */
function leaks(where: string, text: string): string[] {
  return canaries
    .filter((c) => text.includes(c))
    .map((c) => `${where}: ${c === live || c === git ? c : `base64 ${c}`}`);
}

const files = {
  "manifests/secret.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: db
type: Opaque
data:
  password: ${b64(git)}
`,
  "manifests/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n",
};

let s: Scenario | undefined;
let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  s = h = undefined;
});

/** The target applied from Git, then its Secret and ConfigMap changed by hand. */
async function drifted(mode: "warn" | "codify"): Promise<Scenario> {
  s = scenario({ files, target: { mode } });
  await s.applyGit();
  await kubectl(["-n", s.namespace, "patch", "secret", "db", "-p", JSON.stringify({ data: { password: b64(live) } })]);
  await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
  // The cluster holds the live canary (read into memory only, never printed): every check below has something to find.
  const secret = JSON.parse(await kubectl(["-n", s.namespace, "get", "secret", "db", "-o", "json"]));
  expect(secret.data.password === b64(live)).toBe(true);
  return s;
}

describe("a canary Secret", () => {
  it("is in no CLI output: scan (text, JSON, markdown), codify, revert --dry-run", async () => {
    const target = await drifted("warn");
    const found: string[] = [];
    const base = ["--repo", target.repoDir, "--target", target.target, "--kubeconfig", kubeconfigPath()];
    const runs: Array<[string, string[], number]> = [
      ["scan text", ["scan", ...base, "--output", "text"], 1],
      ["scan json", ["scan", ...base, "--output", "json"], 1],
      ["scan markdown", ["scan", ...base, "--output", "markdown"], 1],
      ["revert --dry-run text", ["revert", ...base, "--dry-run"], 0],
      ["revert --dry-run json", ["revert", ...base, "--dry-run", "--output", "json"], 0],
      // 1: the Secret's live value is never written into Git, so its drift is left uncodified.
      ["codify", ["codify", ...base], 1],
    ];
    for (const [name, args, code] of runs) {
      const run = await undrift(args);
      expect(run.code, `${name}: ${run.stderr}`).toBe(code);
      found.push(...leaks(`${name} stdout`, run.stdout), ...leaks(`${name} stderr`, run.stderr));
    }
    // Codify edited the ConfigMap's file and left the Secret's as Git had it: the live value is not in Git.
    expect(await readFile(join(target.repoDir, "manifests/config.yaml"), "utf8")).toContain("LOG_LEVEL: debug");
    const secretFile = await readFile(join(target.repoDir, "manifests/secret.yaml"), "utf8");
    expect(leaks("manifests/secret.yaml after codify", secretFile.replace(b64(git), ""))).toEqual([]);
    expect(found).toEqual([]);
  });

  it.each(["codify", "warn"] as const)(
    "is in no log, Redis key or value, audit line or GitHub request of a %s scan",
    async (mode) => {
      const target = await drifted(mode);
      const commit = await commitRepo(target.repoDir);
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      h = await openAppHarness({
        clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
        log: pino({ level: "trace" }, sink),
      });
      const gh = fakeRepo({ github, head: commit });
      gh.expectToken();
      gh.expectConfig(readFileSync(join(target.repoDir, ".github/undrift.yml"), "utf8"));
      gh.expectHead();
      gh.expectTarball();
      if (mode === "codify") gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
      else {
        gh.expectApp();
        gh.expectIssues({ list: 1, create: 1 });
      }
      gh.expectCheckRuns({ list: 1, create: 1 });
      expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
      h.startWorkers(["test"]);
      const [job] = await h.settled("test", 1);
      expect(job?.failedReason).toBeUndefined();

      // The bodies were written, and the Secret's drift is in them (masked), so the check is not vacuous.
      const bodies = [...gh.state.pulls.map((p) => p.body), ...gh.state.issues.map((i) => i.body)];
      expect(bodies.join("\n")).toContain("Secret");
      expect(gh.state.checkRuns[0]?.output.summary).toBeTruthy();
      const redis = await dumpRedis(h.redis.redis, h.redis.prefix);
      expect(redis.keys.length).toBeGreaterThan(0);
      const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
      expect(audit.length).toBeGreaterThan(0);
      // Git's own value is in the repository already; a tree GitHub is sent may carry Git's file as it is.
      const sent = github.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.json ?? "")}`).join("\n");
      console.info(
        `faults-canary ${mode}: ${lines.length} log lines, ${redis.keys.length} Redis keys, ${audit.length} audit entries, ${github.requests.length} GitHub requests`,
      );
      expect([
        ...leaks("app log", lines.join("")),
        ...leaks("queue log", JSON.stringify(h.redis.log.entries)),
        ...leaks("redis", redis.text),
        ...leaks("undrift audit", formatAudit(audit)),
        ...leaks("GitHub requests", sent),
        ...leaks("pull request, issue and check run bodies", JSON.stringify(gh.state)),
      ]).toEqual([]);
    },
  );
});
