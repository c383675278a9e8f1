// `undrift scan` with REDIS_URL names the person behind a drifted field from the cluster's
// records of writes, and an unreachable Redis costs the report only that line, said once.
import { afterEach, describe, expect, it } from "vitest";
import { writeRecords } from "../../src/state/write-records.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { openTestRedis, type TestRedis } from "../helpers/redis.ts";
import { undrift } from "../helpers/run-cli.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

let current: Scenario | undefined;
let redis: TestRedis | undefined;
afterEach(async () => {
  await current?.cleanup();
  await redis?.cleanup();
  current = redis = undefined;
});

async function driftedConfigMap(): Promise<Scenario> {
  const s = scenario({
    files: {
      "manifests/config.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  LOG_LEVEL: info\n",
    },
  });
  await s.applyGit();
  await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
  return s;
}

const scan = (s: Scenario, env: NodeJS.ProcessEnv) =>
  undrift(["scan", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()], {
    env: { ...process.env, ...env },
  });

describe("undrift scan: who changed it", () => {
  it("names the person whose recorded write produced the drifted field", async () => {
    current = await driftedConfigMap();
    redis = await openTestRedis();
    await writeRecords({ redis: redis.redis, prefix: redis.prefix }).add({
      cluster: "test",
      object: { group: "", kind: "ConfigMap", namespace: current.namespace, name: "settings" },
      verb: "patch",
      username: "alice",
      groups: ["sre"],
      fieldManager: "kubectl-patch",
      fields: ["/data/LOG_LEVEL"],
      at: new Date().toISOString(),
      via: "admission",
    });
    const { code, stdout, stderr } = await scan(current, {
      REDIS_URL: redis.url,
      UNDRIFT_RECORDS_PREFIX: redis.prefix,
    });
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toMatch(/\/data\/LOG_LEVEL: changed by alice \(sre\)/);
  });

  it("says who deleted a missing object, in text and in JSON, when the deletion was recorded", async () => {
    current = await driftedConfigMap();
    await kubectl(["-n", current.namespace, "delete", "configmap", "settings"]);
    redis = await openTestRedis();
    const at = new Date().toISOString();
    await writeRecords({ redis: redis.redis, prefix: redis.prefix }).add({
      cluster: "test",
      object: { group: "", kind: "ConfigMap", namespace: current.namespace, name: "settings" },
      verb: "delete",
      username: "bob",
      groups: ["dev"],
      at,
      via: "admission",
    });
    const env = { REDIS_URL: redis.url, UNDRIFT_RECORDS_PREFIX: redis.prefix };
    const text = await scan(current, env);
    expect(text.stderr).toBe("");
    expect(text.stdout).toContain(`missing: v1 ConfigMap ${current.namespace}/settings`);
    expect(text.stdout).toContain(`\n  deleted by bob (dev) at ${at}\n`);
    const json = await undrift(
      ["scan", "--repo", current.repoDir, "--target", current.target, "--kubeconfig", kubeconfigPath(), "-o", "json"],
      { env: { ...process.env, ...env } },
    );
    const [missing] = JSON.parse(json.stdout).resources;
    expect(missing).toMatchObject({ status: "missing", deletedBy: { username: "bob", groups: ["dev"], at } });
  });

  it("still reports the drift, with managers only, when Redis cannot be reached, and says so once", async () => {
    current = await driftedConfigMap();
    const { code, stdout, stderr } = await scan(current, { REDIS_URL: "redis://127.0.0.1:1" });
    expect(code).toBe(1);
    expect(stdout).toContain(`${current.target}: 1 drifted`);
    expect(stdout).toMatch(/\/data\/LOG_LEVEL: changed by kubectl-patch at /);
    expect(stderr.trim().split("\n")).toEqual([
      "undrift: REDIS_URL: Redis at redis://127.0.0.1:1 is unreachable, so this report does not say who changed what (unset REDIS_URL to scan without)",
    ]);
  });
});
