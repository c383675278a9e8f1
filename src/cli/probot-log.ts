// The logger of the server processes: Probot's own (LOG_LEVEL, LOG_FORMAT,
// LOG_MESSAGE_KEY, SENTRY_DSN, as `probot run` reads them), except for one
// habit. With REDIS_URL set, Probot's throttling plugin (Bottleneck) opens its
// own ioredis client, which undrift cannot configure or close, and Probot logs
// every error of it with its stack: during a Redis outage a line or more a
// second, for every reconnect attempt of that client and of its subscriber.
// Those connection errors go to the same once-per-outage line as undrift's own
// connections (queue/connection.ts); any other throttling error is logged as before.
import { createProbot, type Probot } from "probot";
import { isRedisConnectionError, noteRedisError } from "../queue/connection.ts";

export type ProbotLogger = Probot["log"];

/** Probot's logger as `run` would make it (info by default; json in production, pretty elsewhere). */
export async function probotLog(env: NodeJS.ProcessEnv = process.env): Promise<ProbotLogger> {
  const probot = createProbot({
    env: {
      ...env,
      LOG_LEVEL: env.LOG_LEVEL || "info",
      LOG_FORMAT: env.LOG_FORMAT || (env.NODE_ENV === "production" ? "json" : "pretty"),
      // This Probot only makes the logger: no throttling client of its own.
      REDIS_URL: "",
    },
    overrides: { githubToken: "unused: this Probot only makes the logger" },
  });
  await probot.ready();
  return quietThrottlingRedis(withoutAuthorization(probot.log), env.REDIS_URL);
}

/**
 * `log` and its children, with a request's Authorization header shown as `[redacted]`. Probot's request log
 * (pino-http) binds every request, headers and all, to a child logger when the request arrives, before any
 * handler runs: the audit receiver's bearer token would otherwise be in the log of every post it takes.
 */
export function withoutAuthorization(log: ProbotLogger): ProbotLogger {
  const wrap = (target: ProbotLogger): ProbotLogger =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (property !== "child") return typeof value === "function" ? value.bind(object) : value;
        return (bindings: Record<string, unknown>, ...rest: unknown[]) => {
          const req = bindings?.req as { headers?: Record<string, unknown> } | undefined;
          if (req?.headers?.authorization !== undefined) {
            // The request itself is left alone (its handler reads the header); the log sees a copy without it.
            const shown = Object.create(req) as typeof req;
            shown.headers = { ...req.headers, authorization: "[redacted]" };
            bindings = { ...bindings, req: shown };
          }
          const child = (object.child as unknown as (...a: unknown[]) => ProbotLogger)(bindings, ...rest);
          return wrap(child);
        };
      },
    });
  return wrap(log);
}

/** `log` and its children, with the throttling client's connection errors (source "bottleneck") said once per outage. */
export function quietThrottlingRedis(log: ProbotLogger, redisUrl: string | undefined): ProbotLogger {
  if (!redisUrl) return log;
  const wrap = (target: ProbotLogger): ProbotLogger =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (property === "child")
          return (...args: Parameters<ProbotLogger["child"]>) => wrap(object.child(...args) as unknown as ProbotLogger);
        if (property === "error")
          return (...args: unknown[]) => {
            const [first] = args;
            if (first instanceof Error && (first as { source?: unknown }).source === "bottleneck") {
              if (isRedisConnectionError(first)) return noteRedisError(redisUrl, first, target);
            }
            return (object.error as (...a: unknown[]) => void)(...args);
          };
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  return wrap(log);
}
