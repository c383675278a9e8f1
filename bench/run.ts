// npm run bench: the scan benchmark, then the preview benchmark, in one process
// (one Ctrl-C handler cleans up after either). BENCH_ONLY=scan or
// BENCH_ONLY=preview runs one; the other BENCH_* settings apply to both
// (BENCH_RTT=0,20ms, the default: both time their tools at each round trip).
const only = process.env.BENCH_ONLY;
if (only && only !== "scan" && only !== "preview") {
  console.error(`BENCH_ONLY=${only}: expected scan or preview`);
  process.exit(2);
}
const { closeTimedCluster } = await import("./lib/settings.ts");
try {
  if (only !== "preview") await import("./scan.bench.ts");
  if (only !== "scan") await import("./preview.bench.ts");
} finally {
  await closeTimedCluster();
}
