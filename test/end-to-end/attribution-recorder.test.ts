// The admission recorder against the real API server: `undrift attribution install`
// puts its webhook in the cluster, two people (client certificates the cluster's CA
// signed: alice in group sre, bob in group dev) change tracked objects with kubectl,
// and `undrift scan` with the same Redis names each for the field they changed. A
// Secret written meanwhile leaves no value in Redis, and with the recorder down
// writes still pass (failurePolicy Ignore). Prints the added latency of a write.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/cluster/processes.ts";
import { applyObject } from "../../src/live/apply-object.ts";
import { recorderToken } from "../../src/server/attribution/recorder-token.ts";
import { startRecorder } from "../../src/server/recorder.ts";
import { writeRecords } from "../../src/state/write-records.ts";
import { client, kubeconfigPath } from "../helpers/cluster.ts";
import { kubectlAs, personKubeconfig } from "../helpers/cluster-people.ts";
import { eventually } from "../helpers/eventually.ts";
import { openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";
import { undrift } from "../helpers/run-cli.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const CANARY = "canary-recorder-7f3a9c";
const SECRET = "recorder-test-secret-0123456789abcdef";
let work: string;
let pki: string;
const people: Record<string, string> = {};
let s: Scenario;
let redis: TestRedis;
let installed = false;

/** kubectl as `user`, the way that person makes drift. */
const as = (user: string, args: string[]) => kubectlAs(people[user]!, args);

const configMap = (name: string, data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;

const install = (extra: string[] = [], env: NodeJS.ProcessEnv = { ...process.env, UNDRIFT_RECORDER_SECRET: SECRET }) =>
  undrift(["attribution", ...extra, "--cluster", "test", "--kubeconfig", kubeconfigPath()], { env });

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "undrift-recorder-"));
  pki = join(dirname(kubeconfigPath()), "pki");
  people.alice = personKubeconfig(work, "alice", "sre");
  people.bob = personKubeconfig(work, "bob", "dev");
  s = scenario({
    files: {
      "manifests/settings.yaml": configMap("settings", "LOG_LEVEL: info"),
      "manifests/limits.yaml": configMap("limits", 'max: "10"'),
      "manifests/shared.yaml": configMap("shared", 'A: "1"\n  B: "1"'),
    },
  });
  await s.applyGit();
  await kubectl([
    "-n",
    s.namespace,
    "create",
    "rolebinding",
    "people",
    "--clusterrole=edit",
    "--group=sre",
    "--group=dev",
  ]);
  redis = await openTestRedis();
});

afterAll(async () => {
  if (installed) await install(["uninstall"]);
  await s?.cleanup();
  await redis?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** POSTs `body` to the recorder over HTTPS (trusting `ca`); the status code. */
function post(port: number, path: string, body: unknown, ca: Buffer): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpsRequest({ host: "127.0.0.1", port, path, method: "POST", ca }, (res) => {
      res.resume();
      res.on("end", () => done(res.statusCode ?? 0));
    });
    req.on("error", fail);
    req.end(JSON.stringify(body));
  });
}

describe("the admission recorder", () => {
  it("records who changed what, so undrift scan names alice and bob for their fields; no Secret value is kept", async () => {
    const port = await freePort();
    const log = { info() {}, warn() {}, error: (_: object, message: string) => errors.push(message) };
    const errors: string[] = [];
    const recorder = await startRecorder({
      port,
      host: "127.0.0.1",
      certFile: join(pki, "component.crt"),
      keyFile: join(pki, "component.key"),
      records: writeRecords({ redis: redis.redis, prefix: redis.prefix }),
      secret: SECRET,
      log,
    });
    try {
      // Only this test's objects are sent: other tests share the cluster.
      const selector = `undrift.dev/target=${s.target}`;
      const url = `https://127.0.0.1:${port}`;
      const result = await install(["install", "--url", url, "--ca-file", join(pki, "ca.crt"), "--selector", selector]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      installed = true;
      expect(result.stdout).toBe(
        `validatingwebhookconfiguration undrift-recorder-test applied: writes to objects matching ${selector} are recorded for cluster test\n`,
      );
      const webhook = JSON.parse(
        await kubectl(["get", "validatingwebhookconfiguration", "undrift-recorder-test", "-o", "json"]),
      );
      expect(webhook.webhooks[0]).toMatchObject({ failurePolicy: "Ignore", sideEffects: "None", timeoutSeconds: 2 });

      // The webhook's URL carries the cluster's token; a review posted without it is refused and nothing is kept.
      expect(webhook.webhooks[0].clientConfig.url).toBe(
        `${url}/attribution/admission/test/${recorderToken(SECRET, "test")}`,
      );
      const forged = {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: "f",
          kind: { group: "", version: "v1", kind: "ConfigMap" },
          name: "limits",
          namespace: s.namespace,
          operation: "UPDATE",
          userInfo: { username: "mallory", groups: ["sre"] },
        },
      };
      const ca = readFileSync(join(pki, "ca.crt"));
      expect(await post(port, `/attribution/admission/test/${"0".repeat(64)}`, forged, ca)).toBe(401);
      // Every unauthenticated post is 401, as README promises: no token, a malformed one, a wrong one.
      expect(await post(port, "/attribution/admission/test", forged, ca)).toBe(401);
      expect(await post(port, "/attribution/admission/test/not-hex", forged, ca)).toBe(401);

      // The API server may take a moment to load a new webhook configuration: wait until a write is seen.
      const records = writeRecords({ redis: redis.redis, prefix: redis.prefix });
      const key = (name: string, kind = "ConfigMap") => ({ group: "", kind, namespace: s.namespace, name });
      // Each try writes a new value: a record keeps the fields its write changed, and a repeat of a write the
      // recorder missed would change nothing.
      let tries = 0;
      await waitFor(
        "the recorder to see alice's write",
        async () => {
          tries++;
          await as("alice", [
            "-n",
            s.namespace,
            "patch",
            "configmap",
            "settings",
            "-p",
            JSON.stringify({ data: { LOG_LEVEL: `debug-${tries}` } }),
          ]);
          return (await records.forObject("test", key("settings"))).some((r) => r.username === "alice");
        },
        30_000,
      );
      await as("bob", ["-n", s.namespace, "patch", "configmap", "limits", "-p", '{"data":{"max":"99"}}']);
      await as("alice", [
        "-n",
        s.namespace,
        "create",
        "secret",
        "generic",
        "token",
        `--from-literal=password=${CANARY}`,
      ]);
      await as("alice", ["-n", s.namespace, "label", "secret", "token", `undrift.dev/target=${s.target}`]);
      await waitFor("bob's record", async () =>
        (await records.forObject("test", key("limits"))).some((r) => r.username === "bob"),
      );
      // Two people patch one object seconds apart, each a different field: Kubernetes keeps one kubectl-patch
      // entry for both, stamped with bob's time; each is named for their own field, not bob for both (issue 31).
      await as("alice", ["-n", s.namespace, "patch", "configmap", "shared", "-p", '{"data":{"A":"2"}}']);
      const alices = await waitFor("alice's record of shared", async () =>
        (await records.forObject("test", key("shared"))).find((r) => r.username === "alice"),
      );
      // managedFields times are whole seconds: bob writes in a later second than alice, so the shared entry's
      // time is his and not hers.
      await eventually(
        "a second later than alice's write",
        () => Math.floor(Date.now() / 1000) > Math.floor(Date.parse(alices.at) / 1000),
        { intervalMs: 50 },
      );
      await as("bob", ["-n", s.namespace, "patch", "configmap", "shared", "-p", '{"data":{"B":"2"}}']);
      await waitFor("bob's record of shared", async () =>
        (await records.forObject("test", key("shared"))).some((r) => r.username === "bob"),
      );
      await waitFor(
        "the Secret's label record",
        async () => (await records.forObject("test", key("token", "Secret"))).length > 0,
      );
      const [bobs] = await records.forObject("test", key("limits"));
      // mallory's forged review left nothing.
      expect((await records.forObject("test", key("limits"))).map((r) => r.username)).not.toContain("mallory");
      expect(bobs).toMatchObject({
        username: "bob",
        groups: expect.arrayContaining(["dev"]),
        verb: "update",
        fieldManager: "kubectl-patch",
        via: "admission",
      });

      // What a reviewer reads: the scan names the person for the field.
      const scan = await undrift(
        ["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()],
        {
          env: { ...process.env, REDIS_URL: redis.url, UNDRIFT_RECORDS_PREFIX: redis.prefix },
        },
      );
      expect(scan.code).toBe(1);
      expect(scan.stdout).toMatch(/\/data\/LOG_LEVEL: changed by alice \(sre/);
      expect(scan.stdout).toMatch(/\/data\/max: changed by bob \(dev/);
      expect(scan.stdout).toMatch(/\/data\/A: changed by alice \(sre\) ran kubectl patch at \S+\n/);
      expect(scan.stdout).toMatch(/\/data\/B: changed by bob \(dev\) ran kubectl patch at \S+\n/);

      // Nothing of the Secret's value anywhere under the prefix, plain or base64.
      const dump = execFileSync("redis-cli", ["-u", redis.url, "--scan", "--pattern", `${redis.prefix}:*`], {
        encoding: "utf8",
      });
      let everything = "";
      for (const k of dump.split("\n").filter(Boolean)) {
        const type = (await redis.redis.type(k)) as string;
        if (type === "string") everything += await redis.redis.get(k);
        else if (type === "list") everything += (await redis.redis.lrange(k, 0, -1)).join("\n");
        else if (type === "zset") everything += (await redis.redis.zrange(k, "0", "-1")).join("\n");
        else if (type === "hash") everything += JSON.stringify(await redis.redis.hgetall(k));
        else if (type === "stream") everything += JSON.stringify(await redis.redis.xrange(k, "-", "+"));
      }
      expect(everything).toContain("alice");
      expect(everything).not.toContain(CANARY);
      expect(everything).not.toContain(Buffer.from(CANARY).toString("base64"));
      expect(errors).toEqual([]);

      // The added latency of a write with the recorder on, then with its webhook gone (printed, never asserted).
      const admin = client();
      const resource = {
        group: "",
        version: "v1",
        kind: "ConfigMap",
        resource: "configmaps",
        namespaced: true,
        verbs: [],
        preferred: true,
      };
      const write = (value: string) =>
        applyObject({
          client: admin,
          resource,
          object: {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: "timed", namespace: s.namespace, labels: { "undrift.dev/target": s.target } },
            data: { i: value },
          },
          fieldManager: "bench",
          force: true,
          dryRun: false,
        });
      const timeWrites = async (n: number) => {
        const started = performance.now();
        for (let i = 0; i < n; i++) await write(String(i));
        return (performance.now() - started) / n;
      };
      // The API server's own count of its calls to the recorder's webhook, answered or failed.
      const webhookCalls = async () =>
        (await kubectl(["get", "--raw", "/metrics"]))
          .split("\n")
          .filter((line) => line.startsWith("apiserver_admission_webhook_request_total{"))
          .filter((line) => line.includes('name="recorder.attribution.undrift.dev"'))
          .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
      await timeWrites(3);
      const on = await timeWrites(30);

      // The recorder down, its webhook still installed: a write passes all the same.
      await recorder.close();
      await as("alice", ["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"warn"}}']);
      expect(
        await kubectl(["-n", s.namespace, "get", "configmap", "settings", "-o", "jsonpath={.data.LOG_LEVEL}"]),
      ).toBe("warn");

      expect((await install(["uninstall"])).stdout).toBe(
        "validatingwebhookconfiguration undrift-recorder-test deleted\n",
      );
      installed = false;
      expect((await install(["uninstall"])).stdout).toBe(
        "validatingwebhookconfiguration undrift-recorder-test: not installed\n",
      );
      // The API server drops the webhook from its configuration a moment after the delete: "off" is timed once a
      // write no longer reaches it (its own count of calls to the webhook stands still across a write).
      await eventually(
        "the API server to stop calling the uninstalled webhook",
        async () => {
          const before = await webhookCalls();
          await write(`probe-${before}`);
          return (await webhookCalls()) === before;
        },
        { intervalMs: 200 },
      );
      await timeWrites(3);
      const off = await timeWrites(30);
      console.log(
        `admission recorder: a server-side apply took ${on.toFixed(1)} ms with the recorder on, ${off.toFixed(1)} ms without its webhook (mean of 30)`,
      );
    } finally {
      await recorder.close();
    }
  });

  it("refuses an http URL, a missing CA file and a bad selector in one line each, before the cluster", async () => {
    const ca = join(dirname(kubeconfigPath()), "pki", "ca.crt");
    expect(await install(["install", "--url", "http://undrift:8443", "--ca-file", ca])).toEqual({
      code: 2,
      stdout: "",
      stderr: "--url: the API server calls webhooks over https only, got http://undrift:8443\n",
    });
    expect(await install(["install", "--url", "https://undrift:8443", "--ca-file", "/nope/ca.crt"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "--ca-file /nope/ca.crt: no such file\n",
    });
    const bad = await install(["install", "--url", "https://undrift:8443", "--ca-file", ca, "--selector", "a in (b)"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toMatch(/^--selector: set-based selectors \(in, notin\) are not supported: "a in \(b\)"\n$/);
    const { UNDRIFT_RECORDER_SECRET: _s, ...noSecret } = process.env;
    expect(await install(["install", "--url", "https://undrift:8443", "--ca-file", ca], noSecret)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "UNDRIFT_RECORDER_SECRET: required to install, the web process's (at least 32 characters): the cluster's URL token is derived from it\n",
    });
    expect(await install(["reinstall"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'attribution: expected one of install, uninstall, got "reinstall"\n',
    });
  });
});
