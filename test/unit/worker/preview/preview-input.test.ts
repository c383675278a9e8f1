// What a pull request's preview comment is built from while clusters answer
// one by one: every answer so far, the refused targets' rows, and the targets
// of clusters that have not answered yet shown as pending, never as unchanged.
import { describe, expect, it } from "vitest";
import type { ClusterPreview, PreviewPlan } from "../../../../src/state/preview-store.ts";
import { previewInput } from "../../../../src/worker/preview/preview-input.ts";
import { BASE, failingPreview, HEAD, noChangePreview } from "../../report/sample-preview.ts";

const refused = { ...failingPreview(), target: "audit" };
const plan: PreviewPlan = {
  base: BASE,
  head: HEAD,
  behindBy: 2,
  clusters: {
    "prod-eu": { targets: ["shop", "edge"], jobId: "1" },
    "prod-us": { targets: ["web", "api"], jobId: "2" },
  },
  refused: [refused],
};

describe("the preview's input", () => {
  it("shows answered clusters' previews with the refused rows, in target order, and the rest as pending", () => {
    const results = new Map<string, ClusterPreview>([
      ["prod-eu", { previews: [noChangePreview("shop")], unchanged: ["edge"] }],
    ]);
    const input = previewInput({ head: HEAD, plan, results });
    expect(input.previews.map((p) => p.target)).toEqual(["audit", "shop"]);
    expect(input.unchanged).toEqual(["edge"]);
    expect(input.pending).toEqual(["api", "web"]);
    expect(input.behindBy).toBe(2);
  });

  it("has nothing pending once every cluster answered", () => {
    const results = new Map<string, ClusterPreview>([
      ["prod-eu", { previews: [], unchanged: ["edge", "shop"] }],
      ["prod-us", { previews: [noChangePreview("web")], unchanged: ["api"] }],
    ]);
    const input = previewInput({ head: HEAD, plan: { ...plan, behindBy: 0 }, results });
    expect(input.pending).toEqual([]);
    expect(input.unchanged).toEqual(["api", "edge", "shop"]);
    expect(input).not.toHaveProperty("behindBy");
  });
});
