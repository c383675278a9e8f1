// The logger of the server processes: Probot's own (LOG_LEVEL, LOG_FORMAT,
// LOG_MESSAGE_KEY, SENTRY_DSN, as `probot run` reads them), with a request's
// Authorization header kept out of it.
import { createProbot, type Probot } from "probot";
import { probotEnv } from "./probot-env.ts";

export type ProbotLogger = Probot["log"];

/** Probot's logger as `run` would make it (info by default; json in production, pretty elsewhere). */
export async function probotLog(env: NodeJS.ProcessEnv = process.env): Promise<ProbotLogger> {
  const probot = createProbot({
    env: {
      ...probotEnv(env),
      LOG_LEVEL: env.LOG_LEVEL || "info",
      LOG_FORMAT: env.LOG_FORMAT || (env.NODE_ENV === "production" ? "json" : "pretty"),
    },
    overrides: { githubToken: "unused: this Probot only makes the logger" },
  });
  await probot.ready();
  return withoutAuthorization(probot.log);
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
