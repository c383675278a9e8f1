// One cluster start at a time per state folder. Two processes that find no cluster running (cluster:up beside a
// test run's global setup, or two vitest projects on a machine that has none yet) would otherwise both start
// one in the same folder: two etcds on one data dir, a state file naming the later one, and the first up failing
// its readiness wait while the second took its ports' place. The lock is a file beside the folder (down removes
// the folder) holding the holder's pid, so a lock left by a process that died is taken over.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { alive } from "./processes.ts";

/** Runs `fn` holding the lock at `path`, waiting (for as long as the holder lives) while another process holds it. */
export async function withStartLock<T>(path: string, fn: () => Promise<T>, pollMs = 250): Promise<T> {
  for (;;) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(path);
    // An empty file is a holder between its create and its write: it lives.
    if (holder !== undefined && holder !== process.pid && !alive(holder)) rmSync(path, { force: true });
    else await sleep(pollMs);
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}

function readHolder(path: string): number | undefined {
  try {
    const text = readFileSync(path, "utf8").trim();
    return text === "" ? undefined : Number(text);
  } catch {
    return undefined; // removed since: the next try takes it
  }
}
