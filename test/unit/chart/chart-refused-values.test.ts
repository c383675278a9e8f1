// Values the API server would take but that break the install quietly are refused by helm itself, at render,
// with the value named: two workers of one name (the second Deployment, ServiceAccount and PodDisruptionBudget
// overwrite the first) and a Redis password in redis.url (a plain env value anyone reading the Deployment sees).
import { describe, expect, it } from "vitest";
import { renderChart } from "./chart-tools.ts";

const registry = { clusters: { here: { inCluster: true, repositories: ["acme/*"] } } };

describe("charts/undrift: values it refuses", () => {
  it("refuses two workers of one name, naming the entry that repeats it", () => {
    expect(() =>
      renderChart({ ...registry, workers: [{ name: "default" }, { name: "eu" }, { name: "default" }] }),
    ).toThrow('workers[2].name "default" is used twice (workers[0] has it too)');
  });

  it("refuses distinct worker names that make one object name once cut to 63 characters", () => {
    expect(() =>
      renderChart({
        ...registry,
        fullnameOverride: "u".repeat(50),
        workers: [{ name: "eu-west-1" }, { name: "eu-west-2" }],
      }),
    ).toThrow(
      /workers\[1\]\.name "eu-west-2" and workers\[0\]\.name "eu-west-1" both make objects named "u{50}-worker-eu-we"/,
    );
  });

  it("renders one Deployment, ServiceAccount and PodDisruptionBudget per distinct worker", () => {
    const objects = renderChart({ ...registry, workers: [{ name: "a" }, { name: "b" }] });
    for (const kind of ["Deployment", "ServiceAccount", "PodDisruptionBudget"])
      expect(
        objects.filter((o) => o.kind === kind && o.metadata.name.includes("-worker-")).map((o) => o.metadata.name),
      ).toEqual(["r-undrift-worker-a", "r-undrift-worker-b"]);
  });

  it.each([
    ["redis://:hunter2@redis:6379", "a password alone"],
    ["rediss://undrift:hunter2@redis:6380/2", "a user and a password"],
    ["redis://redis:6379?password=hunter2", "ioredis' password query"],
  ])("refuses redis.url %s (%s), pointing at redis.password.existingSecret", (url) => {
    let error = "";
    try {
      renderChart({ ...registry, redis: { url }, workers: [{ name: "a" }] });
    } catch (e) {
      error = String(e);
    }
    expect(error).toContain(
      "redis.url has a password: put it in a Secret named by redis.password.existingSecret (key redis.password.key) instead",
    );
    expect(error).not.toContain("hunter2");
  });

  it("takes a redis.url with a user but no password, and puts the Secret's password into it", () => {
    const objects = renderChart({
      ...registry,
      redis: { url: "redis://undrift@redis:6379", password: { existingSecret: "redis" } },
      workers: [{ name: "a" }],
    });
    const env = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "r-undrift-worker-a")!.spec.template
      .spec.containers[0].env;
    expect(env.find((e: { name: string }) => e.name === "REDIS_URL").value).toBe(
      "redis://undrift:$(REDIS_PASSWORD)@redis:6379",
    );
  });
});
