// A memory cgroup for a process the benchmark starts, so that process runs under the memory limit its pod has:
// Node sizes V8's heap from the cgroup it starts in (a 512 MiB limit gives a heap limit of about 260 MB, none on
// this 24 GiB machine about 4 GB), and with no limit V8 lets the old space grow to several times what it holds
// before it collects. A worker measured without its limit is measured as no pod runs it.
//
// The cgroup is made inside this process's own (v2's unified hierarchy, else v1's memory controller), so it
// needs write access there (root, or a delegated cgroup); where there is none, `unavailable` says why and the
// benchmark reports the figures as taken without a limit.
//
//   const cg = await memoryCgroup(512 * 2 ** 20);
//   if ("procs" in cg) spawn("/bin/sh", ["-c", 'echo $$ > "$CG" && exec "$@"', "sh", ...command], { env: { CG: cg.procs } });
import { existsSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export type MemoryCgroup =
  | {
      /** The file a process writes its pid to, to enter the cgroup. */
      procs: string;
      /** `512 MiB (cgroup v1)`. */
      label: string;
      remove(): Promise<void>;
    }
  | { unavailable: string };

/** A new cgroup limited to `limitBytes` of memory, inside this process's own. */
export async function memoryCgroup(limitBytes: number): Promise<MemoryCgroup> {
  const own = await readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const v1 = /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m.exec(own)?.[1];
  const v2 = /^0::(.*)$/m.exec(own)?.[1];
  const candidates = [
    ...(v2 !== undefined
      ? ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].map((root) => ({ dir: join(root, v2), version: 2 as const }))
      : []),
    ...(v1 !== undefined ? [{ dir: join("/sys/fs/cgroup/memory", v1), version: 1 as const }] : []),
  ];
  const reasons: string[] = [];
  for (const { dir: parent, version } of candidates) {
    const limitFile = version === 2 ? "memory.max" : "memory.limit_in_bytes";
    if (version === 2) {
      // v2 limits memory in a child only where the parent hands the controller down.
      const controllers = await readFile(join(parent, "cgroup.subtree_control"), "utf8").catch(() => "");
      if (!/\bmemory\b/.test(controllers)) {
        reasons.push(`${parent}: the memory controller is not enabled for its children`);
        continue;
      }
    } else if (!existsSync(join(parent, limitFile))) {
      reasons.push(`${parent}: no ${limitFile}`);
      continue;
    }
    const dir = join(parent, `undrift-bench-${process.pid}-${Date.now()}`);
    try {
      await mkdir(dir);
      await writeFile(join(dir, limitFile), String(limitBytes));
    } catch (error) {
      await rmdir(dir).catch(() => undefined);
      reasons.push(`${dir}: ${(error as Error).message}`);
      continue;
    }
    return {
      procs: join(dir, "cgroup.procs"),
      label: `${Math.round(limitBytes / 2 ** 20)} MiB (cgroup v${version})`,
      // A cgroup can be removed once its processes are gone; a moment after a kill it may still hold one.
      async remove() {
        for (let attempt = 0; attempt < 20; attempt++) {
          try {
            await rmdir(dir);
            return;
          } catch {
            await new Promise((wake) => setTimeout(wake, 100));
          }
        }
      },
    };
  }
  return { unavailable: reasons.join("; ") || "no cgroup of this process found in /proc/self/cgroup" };
}

/** A Kubernetes memory quantity (`512Mi`, `1Gi`, `800M`, bytes) in bytes. */
export function quantityBytes(quantity: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity.trim());
  if (!m) throw new Error(`${quantity}: not a memory quantity such as 512Mi`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Math.round(Number(m[1]) * (m[2] ? unit[m[2] as keyof typeof unit] : 1));
}
