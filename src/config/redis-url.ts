// Where undrift finds Redis: REDIS_URL, else the local default (DESIGN "Server configuration").

/** The Redis URL undrift uses when REDIS_URL is not set. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** REDIS_URL from the environment, or the default. */
export function redisUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.REDIS_URL || DEFAULT_REDIS_URL;
}

/** The URL as a log line may show it: without its password (or a user's secret in the user part). */
export function printableRedisUrl(url: string): string {
  if (!URL.canParse(url)) return "REDIS_URL";
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString().replace(/\/$/, "");
}
