import { defineConfig } from "vitest/config";

// The benchmarks that run the app's worker need vitest: GitHub is the OpenAPI-checked nock mock the tests use
// (test/helpers/github-mock.ts), and the test cluster comes from the tests' global setup. bench/run.ts starts it;
// the files are benchmarks, not tests (`npm test` does not include bench/).
export default defineConfig({
  test: {
    include: ["bench/watch-app.bench.ts"],
    globalSetup: ["test/setup/cluster.ts"],
    hookTimeout: 900_000,
    // The figures go to stderr as they are measured, and to bench/results.
    reporters: ["default"],
  },
});
