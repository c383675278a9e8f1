// The status page's chart: the JSON the server put in #chart-data drawn with
// uPlot (served beside this file), one line per target. No build step: plain
// JavaScript the browser runs as it is.

(() => {
  const data = document.getElementById("chart-data");
  const target = document.getElementById("chart");
  if (!data || !target || typeof uPlot !== "function") return;
  const { series } = JSON.parse(data.textContent || "{}");
  if (!Array.isArray(series) || series.length === 0) {
    target.textContent = "No scans recorded in the last 14 days.";
    return;
  }
  // uPlot wants one x axis shared by every series: the union of the scan times, a gap where a target had no scan.
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => Math.floor(p[0] / 1000))))].sort((a, b) => a - b);
  const columns = series.map((s) => {
    const at = new Map(s.points.map((p) => [Math.floor(p[0] / 1000), p[1]]));
    return times.map((t) => (at.has(t) ? at.get(t) : null));
  });
  const palette = ["#d1242f", "#0969da", "#1a7f37", "#8250df", "#bf8700", "#cf222e", "#116329", "#6639ba"];
  const width = () => Math.max(320, target.clientWidth || 800);
  const chart = new uPlot(
    {
      width: width(),
      height: 260,
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [{}, { label: "objects out of sync" }],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: palette[i % palette.length],
          width: 2,
          spanGaps: true,
          points: { show: true, size: 5 },
        })),
      ],
    },
    [times, ...columns],
    target,
  );
  window.addEventListener("resize", () => chart.setSize({ width: width(), height: 260 }));
})();
