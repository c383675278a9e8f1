import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withStartLock } from "../../../scripts/cluster/start-lock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const lockPath = () => {
  const dir = mkdtempSync(join(tmpdir(), "undrift-start-lock-"));
  dirs.push(dir);
  return join(dir, "undrift-cluster.lock");
};

describe("withStartLock", () => {
  it("lets one start run at a time: the second waits until the first is done, then runs", async () => {
    const path = lockPath();
    const events: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = withStartLock(path, async () => {
      events.push("first in");
      await held;
      events.push("first out");
      return "first";
    });
    const second = withStartLock(
      path,
      async () => {
        events.push("second in");
        return "second";
      },
      5,
    );
    // The second polls several times while the first holds the lock.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(["first in"]);
    release();
    expect(await Promise.all([first, second])).toEqual(["first", "second"]);
    expect(events).toEqual(["first in", "first out", "second in"]);
    expect(existsSync(path)).toBe(false);
  });

  it("takes over a lock whose holder died, and frees it when its start fails", async () => {
    const path = lockPath();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(path, String(dead));
    await expect(
      withStartLock(path, async () => {
        throw new Error("kube-apiserver was not ready");
      }),
    ).rejects.toThrow("not ready");
    expect(existsSync(path)).toBe(false);
  });
});
