// The render threads are kept between renders (src/desired/render-in-worker.ts).
// What a user would notice if keeping them went wrong: a CLI run that does not
// exit after its last render, renders that answer each other's targets, or a
// render that runs with the environment of an earlier one (another kustomize).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { RenderError } from "../../../src/desired/render-error.ts";
import { renderInWorker } from "../../../src/desired/render-in-worker.ts";
import { renderTarget } from "../../../src/desired/render-target.ts";
import { ToolNotFoundError } from "../../../src/desired/tools.ts";
import { tempRepo } from "./temp-repo.ts";

const run = promisify(execFile);
const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {k: v}\n`;
const target = (path: string) => ({ name: path, path, render: "auto" as const, namespace: "ns" });

const savedKustomize = process.env.UNDRIFT_KUSTOMIZE;
afterEach(() => {
  if (savedKustomize === undefined) delete process.env.UNDRIFT_KUSTOMIZE;
  else process.env.UNDRIFT_KUSTOMIZE = savedKustomize;
});

describe("renderInWorker", { timeout: 60_000 }, () => {
  it("answers each of many renders at once with its own target's render, as rendering in the thread does", async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`t${i}/cm.yaml`, cm(`cm-${i}`)]));
    const dir = await tempRepo({ ...files, "broken/cm.yaml": "kind: [unclosed\n" });
    const paths = Object.keys(files).map((file) => file.split("/")[0]!);
    // Twice as many renders as there are threads at most, so threads are reused and hold several at once.
    const renders = await Promise.all(paths.map((path) => renderInWorker({ repoDir: dir, target: target(path) })));
    const inThread = await Promise.all(paths.map((path) => renderTarget({ repoDir: dir, target: target(path) })));
    expect(renders).toEqual(inThread);
    expect(renders.map((r) => r.objects[0]?.object.metadata.name)).toEqual(paths.map((p) => `cm-${p.slice(1)}`));

    const failed = await renderInWorker({ repoDir: dir, target: target("broken") }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(RenderError);
    expect(failed).toMatchObject({ file: "broken/cm.yaml" });
    // The thread that answered the error renders the next target as before.
    expect((await renderInWorker({ repoDir: dir, target: target("t3") })).objects).toHaveLength(1);
  });

  it("looks the tools up in the environment as it is at each render, not as it was when its thread started", async () => {
    const dir = await tempRepo({ "app/kustomization.yaml": "resources: [cm.yaml]\n", "app/cm.yaml": cm("a") });
    await renderInWorker({ repoDir: dir, target: target("app") });
    process.env.UNDRIFT_KUSTOMIZE = "/nonexistent/kustomize";
    const failed = await renderInWorker({ repoDir: dir, target: target("app") }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ToolNotFoundError);
    expect(String(failed)).toContain("UNDRIFT_KUSTOMIZE=/nonexistent/kustomize");
  });

  it("does not hold a process open after its last render", async () => {
    const dir = await tempRepo({ "app/cm.yaml": cm("a") });
    const module = join(import.meta.dirname, "../../../src/desired/render-in-worker.ts");
    // The timer is unref'd too: it fires only if something else holds the process open.
    const script = `
      import { renderInWorker } from ${JSON.stringify(module)};
      setTimeout(() => { console.log("still open"); process.exit(3); }, 20_000).unref();
      const { objects } = await renderInWorker({ repoDir: ${JSON.stringify(dir)}, target: ${JSON.stringify(target("app"))} });
      console.log(objects.length);
    `;
    const file = join(dir, "render-once.mjs");
    await writeFile(file, script);
    const { stdout } = await run(process.execPath, [file]);
    expect(stdout.trim()).toBe("1");
  });
});
