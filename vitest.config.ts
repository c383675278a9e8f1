import { defineConfig } from "vitest/config";

// Two projects: unit tests need nothing running; integration tests get the
// loopback test cluster from a global setup (started when none runs).
export default defineConfig({
  test: {
    reporters: ["default", "./test/setup/summary-reporter.ts"],
    // Integration tests share one API server and one Redis; two cores gain nothing from more workers.
    maxWorkers: 2,
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/setup/cluster.ts"],
          testTimeout: 60_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
