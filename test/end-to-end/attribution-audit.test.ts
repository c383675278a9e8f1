// The audit webhook backend against the real API server: the test cluster's
// kube-apiserver posts its audit events (scripts/cluster/audit.ts) to
// `undrift web` serving its HTTPS port (UNDRIFT_RECORDER_PORT) on the
// cluster's audit port, with the registry's token for cluster `test`. alice (group sre) and bob (group dev) change
// tracked objects with kubectl (patch, edit, delete), and `undrift scan` with
// the same Redis names each for their field and bob for the deletion, with
// no admission recorder installed. A canary Secret written meanwhile (sent at
// RequestResponse, its value in the body) leaves nothing in Redis, the web
// process's log or the scan's output. Posts without the token, with another
// cluster's, or that are no EventList are refused and the process keeps
// serving; a flood is absorbed with bounded memory; with the receiver down
// the cluster keeps working. Prints events per second and Redis bytes per record.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { freePort } from "../../scripts/cluster/processes.ts";
import { writeRecords } from "../../src/state/write-records.ts";
import { appPrivateKey } from "../helpers/app-process-setup.ts";
import { auditWebhook, kubeconfigPath } from "../helpers/cluster.ts";
import { kubectlAs, personKubeconfig } from "../helpers/cluster-people.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type GitHubRelay, startGitHubRelay } from "../helpers/github-relay.ts";
import { type MemoryCgroup, memoryCgroup, quantityBytes } from "../helpers/memory-cgroup.ts";
import { waitFor } from "../helpers/redis.ts";
import { dumpRedis } from "../helpers/redis-dump.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { undrift } from "../helpers/run-cli.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const cli = resolve(import.meta.dirname, "../../bin/undrift.js");
const github = useGitHubMock();
const CANARY = "canary-audit-5d21e8b7";
const OTHER_TOKEN = "other-cluster-audit-token-0123456789abcdef";
const PREFIX = "undrift";

let work: string;
let s: Scenario;
let redisServer: RedisServer;
let redis: Redis;
let relay: GitHubRelay;
let web: ChildProcess | undefined;
/** The web process's memory cgroup, where this machine lets the test make one (root, or a delegated cgroup). */
let webCgroup: Extract<MemoryCgroup, { procs: string }> | undefined;
/** The chart's memory limit for the web pods. */
const WEB_MEMORY_LIMIT = quantityBytes(
  (parse(readFileSync(resolve(import.meta.dirname, "../../charts/undrift/values.yaml"), "utf8")) as ChartValues).web
    .resources.limits.memory,
);
interface ChartValues {
  web: { resources: { limits: { memory: string } } };
}
let webOutput = "";
let webPort = 0;
const people: Record<string, string> = {};
const as = (user: string, args: string[], env: NodeJS.ProcessEnv = {}) => kubectlAs(people[user]!, args, env);

const configMap = (name: string, data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;

/** `undrift web` on the cluster's audit port, with the registry naming the audit tokens of `test` and `other`. */
async function startWeb(): Promise<void> {
  const webhook = auditWebhook();
  // The resync at boot lists the installations: none.
  github.expect({ method: "GET", path: "/app/installations", reply: { body: [] } });
  webOutput = "";
  webPort = await freePort();
  // As the chart's web Deployment runs it: its command's V8 flag, and its memory limit, from which Node sizes V8's
  // heap. Started without them (as this test did), V8 let the heap grow to several times what it held, and the
  // flood's peak RSS, 472 to 483 MiB in four runs, reached 516 MiB in a fifth.
  const cgroup = await memoryCgroup(WEB_MEMORY_LIMIT);
  webCgroup = "procs" in cgroup ? cgroup : undefined;
  const command = [process.execPath, "--max-semi-space-size=4", cli, "web"];
  const [file, ...args] = webCgroup
    ? ["/bin/sh", "-c", 'echo $$ > "$UNDRIFT_CGROUP_PROCS" && exec "$@"', "sh", ...command]
    : command;
  web = spawn(file!, args, {
    cwd: work,
    env: {
      ...process.env,
      ...(webCgroup ? { UNDRIFT_CGROUP_PROCS: webCgroup.procs } : {}),
      APP_ID: "4242",
      PRIVATE_KEY: appPrivateKey(),
      WEBHOOK_SECRET: "undrift-test-secret",
      GHE_HOST: relay.host,
      GHE_PROTOCOL: "http",
      REDIS_URL: redisServer.url,
      UNDRIFT_CLUSTERS: join(work, "clusters.yaml"),
      OTHER_AUDIT_TOKEN: OTHER_TOKEN,
      NO_SMEE_SETUP: "true",
      LOG_FORMAT: "json",
      HOST: "127.0.0.1",
      PORT: String(webPort),
      // The apiserver sends its token over https only: it posts to the recorder's HTTPS port, which serves both.
      UNDRIFT_RECORDER_PORT: String(webhook.port),
      UNDRIFT_RECORDER_HOST: "127.0.0.1",
      UNDRIFT_RECORDER_CERT_FILE: webhook.certFile,
      UNDRIFT_RECORDER_KEY_FILE: webhook.keyFile,
      UNDRIFT_RECORDER_SECRET: "audit-test-recorder-secret-0123456789",
      UNDRIFT_RECORDER_CLIENT_CA_FILE: webhook.caCert,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => {
    webOutput += chunk.toString();
  };
  web.stdout?.on("data", append);
  web.stderr?.on("data", append);
  await waitFor(
    "the audit receiver's and the HTTPS port's lines",
    () => webOutput.includes("audit receiver on /attribution/audit/") && webOutput.includes("admission recorder on"),
    30_000,
  );
}

async function stopWeb(): Promise<void> {
  if (web && web.exitCode === null && web.signalCode === null) {
    web.kill("SIGKILL");
    await once(web, "exit");
  }
  web = undefined;
  await webCgroup?.remove();
  webCgroup = undefined;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** POSTs `body` (text) to the receiver on the audit port, over https as the apiserver does; status and answer. */
function post(path: string, body: string, token?: string, client?: string): Promise<{ status: number; text: string }> {
  const webhook = auditWebhook();
  const certificate = client
    ? { cert: readFileSync(join(work, `${client}.crt`)), key: readFileSync(join(work, `${client}.key`)), agent: false }
    : { agent };
  return new Promise((done, fail) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: webhook.port,
        path,
        method: "POST",
        ca: readFileSync(webhook.caCert),
        ...certificate,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => done({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

const healthz = async () => (await fetch(`http://127.0.0.1:${webPort}/healthz`)).status;

const testToken = () => readFileSync(auditWebhook().tokenFile, "utf8").trim();
const records = () => writeRecords({ redis, prefix: PREFIX });
const key = (name: string, kind = "ConfigMap") => ({ group: "", kind, namespace: s.namespace, name });

beforeAll(async () => {
  const webhook = auditWebhook();
  work = mkdtempSync(join(tmpdir(), "undrift-audit-"));
  people.alice = personKubeconfig(work, "alice", "sre");
  people.bob = personKubeconfig(work, "bob", "dev");
  // Client certificates the cluster's CA signed, as an apiserver of cluster `certified` (and an impostor) present.
  personKubeconfig(work, "apiserver-certified", "audit");
  personKubeconfig(work, "apiserver-impostor", "audit");
  writeFileSync(
    join(work, "clusters.yaml"),
    [
      "clusters:",
      `  ${webhook.cluster}:`,
      `    kubeconfig: ${kubeconfigPath()}`,
      "    repositories: [acme/gitops]",
      `    audit: {token: {file: ${webhook.tokenFile}}}`,
      "  other:",
      `    kubeconfig: ${kubeconfigPath()}`,
      "    repositories: [acme/gitops]",
      "    audit: {token: {env: OTHER_AUDIT_TOKEN}}",
      "  certified:",
      `    kubeconfig: ${kubeconfigPath()}`,
      "    repositories: [acme/gitops]",
      "    audit: {clientCertificate: {commonName: apiserver-certified}}",
      "",
    ].join("\n"),
  );
  s = scenario({
    files: {
      "manifests/settings.yaml": configMap("settings", "LOG_LEVEL: info"),
      "manifests/limits.yaml": configMap("limits", 'max: "10"'),
      "manifests/doomed.yaml": configMap("doomed", "a: b"),
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
  redisServer = await startRedisServer();
  redis = new Redis(redisServer.url);
  relay = await startGitHubRelay();
  await startWeb();
});

afterAll(async () => {
  await stopWeb();
  agent.destroy();
  redis?.disconnect();
  await redisServer?.stop();
  await relay?.close();
  await s?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the audit webhook backend", () => {
  it("names alice and bob for their fields and bob for the deletion, from the cluster's audit events, and keeps no Secret value", async () => {
    // No admission recorder writes to this test's Redis prefix (attribution-recorder.test.ts may have one installed
    // at the same time, with its own web process and prefix): the records read here can only come from audit events.
    await as("alice", ["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    // kubectl edit, as a person runs it: the editor rewrites the object kubectl hands it.
    await as("bob", ["-n", s.namespace, "edit", "configmap", "limits"], {
      KUBE_EDITOR: `sed -i 's/max: "10"/max: "99"/'`,
    });
    await as("bob", ["-n", s.namespace, "delete", "configmap", "doomed"]);
    await as("alice", ["-n", s.namespace, "create", "secret", "generic", "token", `--from-literal=password=${CANARY}`]);
    await as("alice", ["-n", s.namespace, "label", "secret", "token", `undrift.dev/target=${s.target}`]);

    await waitFor(
      "the audit events of alice's and bob's writes",
      async () => {
        const [settings, limits, doomed, secret] = await Promise.all([
          records().forObject("test", key("settings")),
          records().forObject("test", key("limits")),
          records().forObject("test", key("doomed")),
          records().forObject("test", key("token", "Secret")),
        ]);
        return (
          settings.some((r) => r.username === "alice") &&
          limits.some((r) => r.username === "bob") &&
          doomed.some((r) => r.verb === "delete") &&
          secret.length >= 2
        );
      },
      60_000,
    );
    const [bobs] = (await records().forObject("test", key("limits"))).filter((r) => r.username === "bob");
    expect(bobs).toMatchObject({
      username: "bob",
      groups: expect.arrayContaining(["dev"]),
      verb: "patch",
      fieldManager: "kubectl-edit",
      userAgent: expect.stringMatching(/^kubectl\//),
      sourceIP: "127.0.0.1",
      via: "audit",
    });

    // What a reviewer reads: the scan names the person for the field, and who deleted the missing object.
    const env = { ...process.env, REDIS_URL: redisServer.url, UNDRIFT_RECORDS_PREFIX: PREFIX };
    const scanArgs = ["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
    const text = await undrift(scanArgs, { env });
    expect(text.stderr).toBe("");
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /\/data\/LOG_LEVEL: changed by alice \(sre\) ran kubectl patch at \S+ from 127\.0\.0\.1/,
    );
    expect(text.stdout).toMatch(/\/data\/max: changed by bob \(dev\) ran kubectl edit at \S+ from 127\.0\.0\.1/);
    expect(text.stdout).toContain(`missing: v1 ConfigMap ${s.namespace}/doomed`);
    expect(text.stdout).toMatch(/\n {2}deleted by bob \(dev\) at \S+ from 127\.0\.0\.1\n/);
    const json = JSON.parse((await undrift([...scanArgs, "-o", "json"], { env })).stdout) as {
      resources: Array<{ name: string; deletedBy?: object; changes: Array<{ path: string; actor?: object }> }>;
    };
    const byName = (name: string) => json.resources.find((r) => r.name === name)!;
    expect(byName("settings").changes[0]?.actor).toMatchObject({
      username: "alice",
      userAgent: expect.stringMatching(/^kubectl\//),
      sourceIP: "127.0.0.1",
    });
    expect(byName("doomed").deletedBy).toMatchObject({ username: "bob", groups: expect.arrayContaining(["dev"]) });

    // The Secret's body came at RequestResponse: nothing of it under the prefix, in the log or in the outputs.
    const dump = await dumpRedis(redis, PREFIX);
    expect(dump.text).toContain("alice");
    for (const where of [dump.text, webOutput, text.stdout, JSON.stringify(json)]) {
      expect(where).not.toContain(CANARY);
      expect(where).not.toContain(Buffer.from(CANARY).toString("base64"));
    }
    expect(webOutput).not.toContain(testToken());
  });

  it("refuses a post without the token, with another cluster's token or certificate, and one that is no EventList, and keeps serving", async () => {
    const forged = JSON.stringify({
      apiVersion: "audit.k8s.io/v1",
      kind: "EventList",
      items: [
        {
          stage: "ResponseComplete",
          verb: "patch",
          user: { username: "mallory", groups: ["sre"] },
          objectRef: { resource: "configmaps", namespace: s.namespace, name: "settings" },
          requestReceivedTimestamp: new Date().toISOString(),
        },
      ],
    });
    expect(await post("/attribution/audit/test", forged)).toEqual({ status: 401, text: "unauthorized\n" });
    expect(await post("/attribution/audit/test", forged, OTHER_TOKEN)).toEqual({ status: 401, text: "unauthorized\n" });
    expect(await post("/attribution/audit/nowhere", forged, testToken())).toEqual({
      status: 401,
      text: "unauthorized\n",
    });
    expect(await post("/attribution/audit/test", '{"kind":"EventList"', testToken())).toEqual({
      status: 400,
      text: "not JSON: expected an audit.k8s.io/v1 EventList\n",
    });
    expect(
      await post("/attribution/audit/test", '{"apiVersion":"audit.k8s.io/v1","kind":"Event"}', testToken()),
    ).toEqual({ status: 400, text: 'kind: expected EventList, got "Event"\n' });
    expect(
      await post("/attribution/audit/test", '{"apiVersion":"audit.k8s.io/v1","kind":"EventList"}', testToken()),
    ).toEqual({
      status: 400,
      text: "items: expected a list of audit events\n",
    });
    // A client certificate in place of a token: the registered CN for its own cluster only.
    expect(await post("/attribution/audit/certified", forged, undefined, "apiserver-certified")).toEqual({
      status: 200,
      text: "kept 1 of 1\n",
    });
    expect(await post("/attribution/audit/certified", forged, undefined, "apiserver-impostor")).toEqual({
      status: 401,
      text: "unauthorized\n",
    });
    expect(await post("/attribution/audit/test", forged, undefined, "apiserver-certified")).toEqual({
      status: 401,
      text: "unauthorized\n",
    });
    // The other cluster's own token is good for its own path.
    expect(await post("/attribution/audit/other", forged, OTHER_TOKEN)).toEqual({ status: 200, text: "kept 1 of 1\n" });

    expect(await healthz()).toBe(200);
    expect((await records().forObject("test", key("settings"))).map((r) => r.username)).not.toContain("mallory");
    const lines = webOutput.split("\n").filter((line) => line.includes("audit receiver: refused"));
    expect(lines.some((line) => line.includes("refused a post for cluster test (401, no token)"))).toBe(true);
    expect(lines.some((line) => line.includes("(400): kind: expected EventList"))).toBe(true);
    expect(webOutput).not.toContain(OTHER_TOKEN);
    expect(webOutput).not.toContain("mallory");
  });

  it("absorbs a flood of events for a minute without losing the web process, in bounded memory", {
    timeout: 150_000,
  }, async () => {
    const token = testToken();
    // Each post is stamped when it is sent, as the apiserver's batches are: a write is a new record, so every
    // object keeps gaining records through the minute and its bound is held under the flood, not met by
    // resending the same few (a record is a sorted-set member: the same write twice is kept once).
    const AT = "@@at@@";
    const batch = (n: number) =>
      JSON.stringify({
        apiVersion: "audit.k8s.io/v1",
        kind: "EventList",
        items: Array.from({ length: 400 }, (_, i) => ({
          level: "Metadata",
          stage: "ResponseComplete",
          verb: i % 4 === 0 ? "get" : "patch",
          requestURI: `/api/v1/namespaces/flood/configmaps/cm-${(n * 400 + i) % 5000}?fieldManager=kubectl-patch`,
          user: { username: `user-${i % 50}`, groups: ["dev"] },
          sourceIPs: ["10.0.0.1"],
          userAgent: "kubectl/v1.34.2",
          objectRef: {
            resource: "configmaps",
            namespace: "flood",
            name: `cm-${(n * 400 + i) % 5000}`,
            apiVersion: "v1",
          },
          responseStatus: { code: 200 },
          requestReceivedTimestamp: AT,
          stageTimestamp: AT,
        })),
      });
    const bodies = Array.from({ length: 20 }, (_, n) => batch(n));
    let sent = 0;
    let kept = 0;
    let busy = 0;
    const other: number[] = [];
    const started = Date.now();
    const sender = async () => {
      while (Date.now() - started < 60_000) {
        const body = bodies[sent++ % bodies.length]!.replaceAll(AT, new Date().toISOString());
        const answer = await post("/attribution/audit/test", body, token);
        if (answer.status === 200) kept += 400;
        else if (answer.status === 429) busy++;
        else other.push(answer.status);
      }
    };
    let peakRss = 0;
    const sampler = setInterval(() => {
      const status = readFileSync(`/proc/${web!.pid}/status`, "utf8");
      peakRss = Math.max(peakRss, Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024);
    }, 200);
    try {
      await Promise.all(Array.from({ length: 8 }, sender));
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - started) / 1000;
    expect(other).toEqual([]);
    expect(kept).toBeGreaterThan(0);
    expect(web!.exitCode).toBeNull();
    expect(await healthz()).toBe(200);
    expect(peakRss).toBeLessThan(512 << 20);
    // Each object kept to its bound, whatever came.
    const flooded = await records().forObject("test", {
      group: "",
      kind: "ConfigMap",
      namespace: "flood",
      name: "cm-1",
    });
    expect(flooded.length).toBeGreaterThan(0);
    expect(flooded.length).toBeLessThanOrEqual(50);
    let bytes = 0;
    let count = 0;
    for (const k of (await redis.keys(`${PREFIX}:write-records:test:/ConfigMap/flood/*`)).slice(0, 200)) {
      bytes += Number(await redis.call("MEMORY", "USAGE", k));
      count += await redis.zcard(k);
    }
    console.log(
      `audit receiver: ${Math.round(kept / seconds)} events/s absorbed (${kept} in ${seconds.toFixed(1)} s, ${busy} batches told to retry), peak RSS ${Math.round(peakRss / 2 ** 20)} MiB, ${Math.round(bytes / count)} Redis bytes per record, ${flooded.length} records kept of cm-1`,
    );
  });

  it("with the receiver down, the cluster keeps working", async () => {
    await stopWeb();
    for (let i = 0; i < 5; i++)
      await as("alice", [
        "-n",
        s.namespace,
        "patch",
        "configmap",
        "settings",
        "-p",
        `{"data":{"LOG_LEVEL":"down-${i}"}}`,
      ]);
    expect(await kubectl(["-n", s.namespace, "get", "configmap", "settings", "-o", "jsonpath={.data.LOG_LEVEL}"])).toBe(
      "down-4",
    );
    await as("bob", ["-n", s.namespace, "create", "configmap", "later", "--from-literal=a=b"]);
    expect(await kubectl(["-n", s.namespace, "get", "configmap", "later", "-o", "name"])).toBe("configmap/later\n");
  });
});
