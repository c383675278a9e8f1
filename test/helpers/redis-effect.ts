// The observable effect of a scan in the recovery tests, made idempotent the way
// undrift's GitHub writes are: keyed by job id, applied at most once however
// often the job runs. Delivery is at least once (a job whose worker died or
// whose lock lapsed during a Redis restart runs again), so "the job completes
// once" means: BullMQ marks it completed once, and its effect exists once.
import type { Redis } from "ioredis";

// SET NX and RPUSH in one step, so a crash between them cannot record a run twice or never.
const APPLY = `
redis.call("RPUSH", KEYS[3], ARGV[1])
if redis.call("SET", KEYS[1], "1", "NX") then
  redis.call("RPUSH", KEYS[2], ARGV[1])
  return 1
end
return 0`;

/** Records a run of `jobId`, and applies its effect unless it was applied already; true when it was applied now. */
export async function applyEffect(redis: Redis, prefix: string, jobId: string): Promise<boolean> {
  const keys = [`${prefix}:effect:${jobId}`, `${prefix}:effects`, `${prefix}:runs`];
  return (await redis.eval(APPLY, 3, ...keys, jobId)) === 1;
}

/** The job ids whose effect was applied, in order. */
export function appliedEffects(redis: Redis, prefix: string): Promise<string[]> {
  return redis.lrange(`${prefix}:effects`, 0, -1);
}

/** Every run that reached the effect, applied or not. */
export function effectRuns(redis: Redis, prefix: string): Promise<string[]> {
  return redis.lrange(`${prefix}:runs`, 0, -1);
}
