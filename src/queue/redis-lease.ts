// A lease in Redis that one process of many holds while it does something only
// one should do (a cluster's watches), and that another takes over within
// seconds when the holder dies: SET key token NX PX ttl to take it, renewed
// every third of its ttl by a compare-and-expire script, so a holder that was
// paused past its ttl never extends someone else's. Unlike withRedisLock it is
// held for the life of the process, not around one piece of work.
//
//   const lease = holdRedisLease({ redis, key: `${prefix}:watch-lease:${cluster}`, onChange: (held) => ... });
//   lease.held;  ...  await lease.release();
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { QueueLog } from "./queue-log.ts";

const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export interface RedisLease {
  /** Whether this process holds the lease now. */
  readonly held: boolean;
  /** Stops trying, and frees the lease when held, so another process takes it at once. */
  release(): Promise<void>;
}

/** Tries to take `key` at once and every ttl/3 after; `onChange` hears each gain and loss. */
export function holdRedisLease(params: {
  redis: Redis;
  key: string;
  ttlMs?: number;
  onChange: (held: boolean) => void;
  log?: QueueLog;
}): RedisLease {
  const { redis, key, onChange } = params;
  const ttlMs = params.ttlMs ?? 6_000;
  const token = randomUUID();
  let held = false;
  let stopped = false;
  const set = (now: boolean) => {
    if (now === held) return;
    held = now;
    onChange(now);
  };
  let busy = false;
  const tick = async () => {
    // A connection that waits out an outage holds a renewal until Redis is back: no second one piles up behind it.
    if (busy) return;
    // Not connected yet (or again): nothing to send; the `ready` event tries at once.
    if (redis.status !== "ready" && !held) return;
    busy = true;
    try {
      const ok = held
        ? (await redis.eval(RENEW, 1, key, token, String(ttlMs))) === 1
        : (await redis.set(key, token, "PX", ttlMs, "NX")) === "OK";
      if (!stopped) set(ok);
    } catch (error) {
      // Redis away: the lease cannot be renewed, so by the time it is back another process may hold it.
      // Said once, when it is lost, not on every try while Redis stays away.
      if (held) params.log?.warn({ err: error, key }, `lease ${key} not renewed`);
      if (!stopped) set(false);
    } finally {
      busy = false;
    }
  };
  // At once, and again each time the connection is (re)established, so a restarted Redis is not left without a holder.
  const onReady = () => void tick();
  redis.on("ready", onReady);
  void tick();
  const timer = setInterval(() => void tick(), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  return {
    get held() {
      return held;
    },
    async release() {
      stopped = true;
      clearInterval(timer);
      redis.off("ready", onReady);
      if (held) {
        held = false;
        onChange(false);
        await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
      }
    },
  };
}
