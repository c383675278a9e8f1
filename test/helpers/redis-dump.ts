// Everything Redis holds under a key prefix, as text: each key with its value
// whatever its type (strings, hashes, lists, sets, sorted sets, streams), so a
// test can say that something (a Secret's value) is nowhere in it.
import type { Redis } from "ioredis";

export async function dumpRedis(redis: Redis, prefix: string): Promise<{ keys: string[]; text: string }> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== "0");
  const parts: string[] = [];
  for (const key of keys.sort()) parts.push(`${key} = ${JSON.stringify(await readKey(redis, key))}`);
  return { keys, text: parts.join("\n") };
}

async function readKey(redis: Redis, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case "string":
      return redis.get(key);
    case "hash":
      return redis.hgetall(key);
    case "list":
      return redis.lrange(key, 0, -1);
    case "set":
      return redis.smembers(key);
    case "zset":
      return redis.zrange(key, "0", "-1", "WITHSCORES");
    case "stream":
      return redis.xrange(key, "-", "+");
    default:
      return null;
  }
}
