// The readiness checks of a server process: Redis answers PING, the cluster
// registry was loaded, and GitHub accepted the App's credentials (GET /app with
// the app's JWT, asked once it is needed and remembered once it succeeded).
import type { Redis } from "ioredis";
import type { ReadinessCheck } from "./probe-routes.ts";

/** Redis answers PING on `connection`; a connection that is not up fails at once instead of queueing the PING. */
export function redisCheck(connection: Redis, url: string): ReadinessCheck {
  return {
    name: "redis",
    async check() {
      if (connection.status !== "ready") throw new Error(`${url}: not connected (${connection.status})`);
      const answer = await connection.ping();
      if (answer !== "PONG") throw new Error(`${url}: PING answered ${answer}`);
    },
  };
}

/** The registry the process was started with; it is read once at start, so once here it stays loaded. */
export function registryCheck(params: { file: string; clusters: number }): ReadinessCheck {
  return {
    name: "cluster-registry",
    async check() {
      if (params.clusters === 0) throw new Error(`${params.file}: lists no cluster`);
    },
  };
}

/** Whether GitHub accepts the App's credentials; a failure is asked again, at most every 10 s. */
export function githubAppCheck(getApp: () => Promise<unknown>): ReadinessCheck {
  let accepted = false;
  let last: { at: number; error: Error } | undefined;
  return {
    name: "github-app",
    async check() {
      if (accepted) return;
      if (last && Date.now() - last.at < 10_000) throw last.error;
      try {
        await getApp();
        accepted = true;
        last = undefined;
      } catch (thrown) {
        const status = (thrown as { status?: number }).status;
        const why = thrown instanceof Error ? thrown.message : String(thrown);
        const error = new Error(`GET /app: ${status ? `${status} ` : ""}${why}`);
        last = { at: Date.now(), error };
        throw error;
      }
    },
  };
}
