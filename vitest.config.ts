import { defineConfig } from "vitest/config";

// Three tiers, each a project of its own (the README says which to run when):
// - unit: no process to start, no network; pure modules and each mode's decisions, in-process.
// - api-server: the real kube-apiserver and Redis; stages called in-process on a namespace of the test's own, a
//   CLI process only where the test is about the CLI. Files run side by side.
// - end-to-end: what needs the controllers, kwok's nodes, admission webhooks, a browser, faults (cuts, kills,
//   restarts), the packed install, floods, expiries, or changes what the whole cluster serves (CRDs, API
//   groups). One file at a time, after the others (sequence.groupOrder), so each owns what it changes.
// A timeout only catches a hang: tests assert behaviour, never speed. Hooks get two minutes, not fifteen: one
// stuck hook must not cost a quarter of an hour (the one hook that needs more says so itself).
export default defineConfig({
  test: {
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    // The API server, etcd, the controllers, kwok and Redis share two cores with the tests: more workers gain nothing.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // promtool (the chart's alert tests) is built here, by the test command, not by cluster:up or the demo.
          globalSetup: ["test/setup/test-tools.ts"],
          // Some unit tests start the CLI as a process, several times; with every file running beside them on two
          // cores that takes seconds.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: "api-server",
          include: ["test/api-server/**/*.test.ts"],
          globalSetup: ["test/setup/cluster.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "end-to-end",
          include: ["test/end-to-end/**/*.test.ts"],
          globalSetup: ["test/setup/cluster.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
