// The logger the queue module writes to: pino's shape, so Probot's `app.log`
// fits as it is. Redis outages surface here (queues and workers emit them as
// `error` events, which would crash the process if nobody listened).

/** A pino-shaped logger; Probot's `app.log` is one. */
export interface QueueLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Writes one JSON line per message to stderr, for when no logger is given. */
export const stderrLog: QueueLog = {
  info: (fields, message) => write("info", fields, message),
  warn: (fields, message) => write("warn", fields, message),
  error: (fields, message) => write("error", fields, message),
};

function write(level: string, fields: object, message: string): void {
  const plain = Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, value instanceof Error ? value.message : value]),
  );
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...plain })}\n`);
}
