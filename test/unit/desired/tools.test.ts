import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ToolNotFoundError, toolPath } from "../../../src/desired/tools.ts";
import { tempRepo } from "./temp-repo.ts";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["UNDRIFT_KUSTOMIZE", "UNDRIFT_HELM", "UNDRIFT_CACHE", "PATH"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

async function executable(path: string) {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, "#!/bin/sh\n");
  await chmod(path, 0o755);
  return path;
}

describe("finding kustomize and helm", () => {
  it("prefers the binary the environment names", async () => {
    const dir = await tempRepo({});
    process.env.UNDRIFT_HELM = await executable(join(dir, "my-helm"));
    expect(toolPath("helm")).toBe(join(dir, "my-helm"));
  });

  it("says so when the environment names a file that is not there", () => {
    process.env.UNDRIFT_KUSTOMIZE = "/nonexistent/kustomize";
    expect(() => toolPath("kustomize")).toThrow("UNDRIFT_KUSTOMIZE=/nonexistent/kustomize: not an executable file");
  });

  it("takes the newest version from the build cache, never a half-built one", async () => {
    const cache = await tempRepo({});
    process.env.UNDRIFT_CACHE = cache;
    delete process.env.UNDRIFT_KUSTOMIZE;
    await executable(join(cache, "bin/kustomize-v5.10.0"));
    await executable(join(cache, "bin/kustomize-v5.9.1"));
    await executable(join(cache, "bin/kustomize-v5.11.0.partial"));
    await executable(join(cache, "bin/helm-v9.0.0"));
    expect(toolPath("kustomize")).toBe(join(cache, "bin/kustomize-v5.10.0"));
  });

  it("falls back to PATH, then fails with what to do", async () => {
    const dir = await tempRepo({});
    process.env.UNDRIFT_CACHE = join(dir, "no-cache");
    delete process.env.UNDRIFT_HELM;
    process.env.PATH = join(dir, "bin");
    expect(() => toolPath("helm")).toThrow(ToolNotFoundError);
    expect(() => toolPath("helm")).toThrow(/^helm not found: set UNDRIFT_HELM, build it into .*no-cache\/bin/);
    await executable(join(dir, "bin/helm"));
    expect(toolPath("helm")).toBe(join(dir, "bin/helm"));
  });
});
