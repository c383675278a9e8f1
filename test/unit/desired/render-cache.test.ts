import { describe, expect, it } from "vitest";
import { RenderCache } from "../../../src/desired/render-cache.ts";
import { tempRepo } from "./temp-repo.ts";

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n";
const target = { name: "app", path: "app", render: "auto" as const, namespace: "ns" };

describe("RenderCache", { timeout: 30_000 }, () => {
  it("renders a target of a tree once until it is forgotten", async () => {
    const dir = await tempRepo({ "app/cm.yaml": cm });
    const cache = new RenderCache();
    const first = cache.render(dir, target);
    expect(cache.render(dir, { ...target })).toBe(first);
    expect((await first).objects.map((o) => o.object.metadata.name)).toEqual(["a"]);
    // Another setting that rendering reads is another render.
    const other = cache.render(dir, { ...target, namespace: "other" });
    expect(other).not.toBe(first);
    cache.forget(dir, target);
    const again = cache.render(dir, target);
    expect(again).not.toBe(first);
    await Promise.all([other, again]);
  });

  it("keeps a failed render as the same error", async () => {
    const dir = await tempRepo({ "app/cm.yaml": "kind: [unclosed\n" });
    const cache = new RenderCache();
    await expect(cache.render(dir, target)).rejects.toThrow(/app\/cm\.yaml/);
    await expect(cache.render(dir, target)).rejects.toThrow(/app\/cm\.yaml/);
  });
});
