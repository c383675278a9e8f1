// npm run bench: the scan benchmark, then the preview benchmark, then the
// watch benchmark (bench/watch.bench.ts), in one process (one Ctrl-C handler
// cleans up after either). BENCH_ONLY=scan, preview or watch runs one; the other BENCH_* settings apply to both
// (BENCH_RTT=0,20ms, the default: both time their tools at each round trip).
// BENCH_ONLY=audit runs the audit receiver's throughput alone (audit.bench.ts; no cluster).
const only = process.env.BENCH_ONLY;
if (only && !["scan", "preview", "watch", "audit"].includes(only)) {
  console.error(`BENCH_ONLY=${only}: expected scan, preview, watch or audit`);
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
