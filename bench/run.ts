// npm run bench: the scan benchmark, then the preview benchmark, in one process
// (one Ctrl-C handler cleans up after either). BENCH_ONLY=scan or
// BENCH_ONLY=preview runs one; the other BENCH_* settings apply to both
// (BENCH_RTT=0,20ms, the default: both time their tools at each round trip).
// BENCH_ONLY=audit runs the audit receiver's throughput alone (audit.bench.ts; no cluster).
const only = process.env.BENCH_ONLY;
if (only && only !== "scan" && only !== "preview" && only !== "audit") {
  console.error(`BENCH_ONLY=${only}: expected scan, preview or audit`);
  process.exit(2);
}
if (only === "audit") {
  await import("./audit.bench.ts");
  process.exit(0);
}
const { closeTimedCluster } = await import("./lib/settings.ts");
try {
  if (only !== "preview") await import("./scan.bench.ts");
  if (only !== "scan") await import("./preview.bench.ts");
} finally {
  await closeTimedCluster();
}
