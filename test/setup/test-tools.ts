// Vitest global setup of the unit tier: builds promtool (once, cached) before the chart's alert and dashboard
// tests run it, so the test command builds what the tests need and `npm run demo` builds only what the demo needs.
import { ensurePromtool } from "../../scripts/cluster/build.ts";

export default function setup() {
  ensurePromtool();
}
