// npm run bench: the scan benchmark, then the preview benchmark, then the
// watch benchmark (bench/watch.bench.ts), in one process (one Ctrl-C handler
// cleans up after either), then the app's worker watching (bench/watch-app.bench.ts, through vitest in a
// process of its own: see bench/vitest.config.ts). BENCH_ONLY=scan, preview, watch or watch-app runs one; the other BENCH_* settings apply to both
// (BENCH_RTT=0,20ms, the default: both time their tools at each round trip).
// BENCH_ONLY=audit runs the audit receiver's throughput alone (audit.bench.ts; no cluster).
import { join } from "node:path";

const only = process.env.BENCH_ONLY;
if (only && !["scan", "preview", "watch", "watch-app", "audit"].includes(only)) {
  console.error(`BENCH_ONLY=${only}: expected scan, preview, watch, watch-app or audit`);
  process.exit(2);
}
if (only === "audit") {
  await import("./audit.bench.ts");
  process.exit(0);
}
const { closeTimedCluster } = await import("./lib/settings.ts");
try {
  if (!only || only === "scan") await import("./scan.bench.ts");
  if (!only || only === "preview") await import("./preview.bench.ts");
  if (!only || only === "watch") await import("./watch.bench.ts");
} finally {
  await closeTimedCluster();
}
if (!only || only === "watch-app") {
  const { spawnSync } = await import("node:child_process");
  const { benchDir, projectDir } = await import("./lib/settings.ts");
  const vitest = join(projectDir, "node_modules/vitest/vitest.mjs");
  const ran = spawnSync(process.execPath, [vitest, "run", "--config", join(benchDir, "vitest.config.ts")], {
    cwd: projectDir,
    stdio: "inherit",
  });
  if (ran.status !== 0) process.exit(ran.status ?? 1);
}
