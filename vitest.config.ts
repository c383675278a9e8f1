import { defineConfig } from "vitest/config";

// Files that change what the whole cluster serves (API groups, CRDs): while one runs, discovery differs for
// every other file's scans, so they run alone, one at a time, after the others (sequence.groupOrder). The
// shared nodes' capacity is the cluster's too: own-node fills it.
const clusterWide = [
  "test/integration/own-node.test.ts",
  "test/integration/scan-unavailable-group.test.ts",
  "test/integration/revert-crd.test.ts",
  "test/integration/scan-undeclared-kinds.test.ts",
];

// Three projects: unit tests need nothing running; integration tests get the loopback test cluster from a
// global setup (started when none runs, and reused by the second project); the cluster-wide ones run last.
export default defineConfig({
  test: {
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    // Integration tests share one API server and one Redis; two cores gain nothing from more workers.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // promtool (the chart's alert tests) is built here, by the test command, not by cluster:up or the demo.
          globalSetup: ["test/setup/test-tools.ts"],
          // Some unit tests start the CLI as a process, several times; with every file running beside them on two
          // cores that takes seconds. A timeout here only catches a hang: tests assert behaviour, never speed.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          exclude: clusterWide,
          globalSetup: ["test/setup/cluster.ts"],
          testTimeout: 60_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: "cluster-wide",
          include: clusterWide,
          globalSetup: ["test/setup/cluster.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
