// What the app says about its own setup and about errors that leave the
// process: one line naming the variable, never its value (REDIS_URL may hold
// a password), and error messages with anything like a credential masked.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseServerEnv } from "../../src/config/server-env.ts";
import { errorSummary } from "../../src/report/error-summary.ts";

describe("the server environment", () => {
  it("fills in the defaults", () => {
    expect(parseServerEnv({})).toEqual({
      redisUrl: "redis://127.0.0.1:6379",
      snapshotDir: join(tmpdir(), "undrift-snapshots"),
      concurrency: 2,
      workerPort: 9464,
      workerHost: "0.0.0.0",
      githubHost: "github.com",
    });
    // GitHub Enterprise Server's host (Probot's GHE_HOST) is the one a reconciler's source URL names.
    expect(parseServerEnv({ GHE_HOST: "ghe.example.com" }).githubHost).toBe("ghe.example.com");
    expect(
      parseServerEnv(
        {
          REDIS_URL: "rediss://:pw@redis:6380/1",
          UNDRIFT_CLUSTERS: "/etc/undrift/clusters.yaml",
          UNDRIFT_CONCURRENCY: "8",
        },
        { requireClusters: true },
      ),
    ).toMatchObject({
      redisUrl: "rediss://:pw@redis:6380/1",
      clustersFile: "/etc/undrift/clusters.yaml",
      concurrency: 8,
    });
  });

  it("names the variable in one line, without echoing a value that may be secret", () => {
    expect(() => parseServerEnv({ REDIS_URL: "http://user:hunter2@redis" })).toThrow(
      /^REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL$/,
    );
    expect(() => parseServerEnv({ UNDRIFT_CONCURRENCY: "0" })).toThrow(
      /^UNDRIFT_CONCURRENCY: expected a whole number from 1 to 64$/,
    );
    expect(() => parseServerEnv({ UNDRIFT_WORKER_PORT: "http" })).toThrow(
      /^UNDRIFT_WORKER_PORT: expected a port number from 0 to 65535$/,
    );
    expect(() => parseServerEnv({ UNDRIFT_BASE_URL: "undrift.example.org" })).toThrow(
      /^UNDRIFT_BASE_URL: expected the http:\/\/ or https:\/\/ URL GitHub reaches the server at, without a query$/,
    );
    expect(parseServerEnv({ UNDRIFT_BASE_URL: "https://gitops.example.net/undrift/" }).baseUrl).toBe(
      "https://gitops.example.net/undrift",
    );
    expect(() => parseServerEnv({ UNDRIFT_CLUSTERS: " " }, { requireClusters: true })).toThrow(
      /^UNDRIFT_CLUSTERS: required/,
    );
  });
});

describe("errors that leave the process", () => {
  it("are one line, capped, with credentials masked", () => {
    const error = new Error(
      "GET https://x-access-token:ghs_abcdefghijklmnop1234@github.com/acme/gitops failed\n    at fetch (node:internal)\nAuthorization: Bearer abcdefgh12345678 token=s3cr3t-value",
    );
    const summary = errorSummary(error);
    expect(summary).not.toMatch(/ghs_|abcdefgh12345678|s3cr3t|\n/);
    expect(summary).toContain("https://***@github.com/acme/gitops failed");
    expect(errorSummary(new Error("x".repeat(5000)), 100)).toHaveLength(100);
  });
});
