// A job's config from its snapshot (src/worker/read-snapshot-config.ts), which
// is parsed once per text and shared by the cycle's jobs: frozen, so no job's
// edit can reach another's, a new text is read anew, and a broken one still
// fails every job that reads it, naming its line.
import type { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { readSnapshotConfig } from "../../../src/worker/read-snapshot-config.ts";
import { tempRepo } from "../desired/temp-repo.ts";

const config = (path: string) => `targets:\n  - name: web\n    cluster: prod\n    path: ${path}\n    namespace: web\n`;
// A file that extends nothing never reaches GitHub.
const read = (dir: string) =>
  readSnapshotConfig({
    dir,
    octokit: undefined as unknown as ProbotOctokit,
    owner: "acme",
    repo: "deploy",
    sha: "0123456",
    lastValid: async () => undefined,
  });

describe("readSnapshotConfig", () => {
  it("shares one frozen config for the same text, so an edit by one job throws and reaches no other", async () => {
    const dir = await tempRepo({ ".github/undrift.yml": config("apps/web") });
    const first = await read(dir);
    expect(first?.config.targets[0]).toMatchObject({ name: "web", path: "apps/web", cluster: "prod" });
    expect(() => {
      first!.config.targets[0]!.path = "edited/by/a/job";
    }).toThrow(TypeError);
    expect(() => first!.config.targets.pop()).toThrow(TypeError);
    const second = await read(dir);
    expect(second?.config).toBe(first?.config);
    expect(second?.config.targets).toHaveLength(1);
    expect(second?.config.targets[0]?.path).toBe("apps/web");
    // The digest names the text: lastValidConfig skips a write of the same one.
    expect(second?.digest).toBe(first?.digest);
    const other = await read(await tempRepo({ ".github/undrift.yml": config("apps/shop") }));
    expect(other?.digest).not.toBe(first?.digest);
  });

  it("reads a changed text anew, and fails on a broken one every time, naming its line", async () => {
    const one = await tempRepo({ ".github/undrift.yml": config("apps/web") });
    const other = await tempRepo({ ".github/undrift.yml": config("apps/shop") });
    expect((await read(one))?.config.targets[0]?.path).toBe("apps/web");
    expect((await read(other))?.config.targets[0]?.path).toBe("apps/shop");
    const broken = await tempRepo({ ".github/undrift.yml": `${config("apps/web")}    mode: sometimes\n` });
    for (let i = 0; i < 2; i++) {
      const failed = await read(broken).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ConfigError);
      expect(String((failed as Error).message)).toMatch(/^\.github\/undrift\.yml:6: .*mode/);
    }
  });

  it("validates a broken text once: every later job of the cycle gets the same error, and the kept config stands in", async () => {
    const broken = await tempRepo({ ".github/undrift.yml": `${config("apps/web")}    mode: sometimes\n` });
    const first = await read(broken).catch((e: unknown) => e);
    const second = await read(broken).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ConfigError);
    // The same error, not one validated anew: at 1,000 targets a validation is 0.3 s of CPU in each job.
    expect(second).toBe(first);
    const kept = { targets: [{ name: "web", cluster: "prod", path: "apps/old", namespace: "web" }] } as never;
    const fallback = await readSnapshotConfig({
      dir: broken,
      octokit: undefined as unknown as ProbotOctokit,
      owner: "acme",
      repo: "deploy",
      sha: "0123456",
      lastValid: async () => kept,
    });
    expect(fallback?.invalid).toBe(first);
    expect(fallback?.config.targets[0]?.path).toBe("apps/old");
    expect(Object.isFrozen(fallback?.config.targets[0])).toBe(true);
  });
});
