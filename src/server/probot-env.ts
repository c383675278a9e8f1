// The environment Probot reads its options from, in undrift's server processes:
// the process's own, without REDIS_URL. Given REDIS_URL, Probot (14) opens an
// ioredis client of its own and clusters the throttling plugin's Bottleneck
// limiters on it, whose keys expire when GitHub is idle (src/github/app-throttle.ts
// says why undrift throttles per process). REDIS_URL stays the queues' alone.

/** `env` without REDIS_URL, for Probot's `run` (web) and `createProbot` (worker). */
export function probotEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { REDIS_URL: _queuesOnly, ...rest } = env;
  return rest;
}
