// MONITOR on the shared test Redis, for a test that counts the commands run on its own keys.
// Not ioredis' monitor(): ioredis enters monitoring mode only once MONITOR's +OK has been handled,
// in a promise's then (built/redis/event_handler.js: call("monitor").then(() => setStatus("monitoring"))),
// so on a Redis that other test files keep busy the first monitor lines, read in the same chunk as
// the +OK, are taken as replies to no command: "Command queue state error", and monitor() rejects
// (last-valid-config.test.ts failed so in a CI run; redis-monitor.test.ts shows it on every try under
// a flood). Here a plain socket sends MONITOR and reads its lines: each is a RESP simple string,
// `+<time> [<db> <client>] "<command>" "<arg>" ...`, in which Redis escapes every quote, backslash and
// control character, so a line ends only at CRLF.
import { EventEmitter } from "node:events";
import { connect } from "node:net";
import { redisUrl } from "../../src/config/redis-url.ts";

export interface RedisMonitor {
  /** Each command Redis runs after MONITOR answered, as its name (lower case) and arguments. */
  on(event: "monitor", listener: (args: string[]) => void): this;
  close(): void;
}

/** MONITOR on a connection of its own; resolves once Redis has answered +OK, so every later command is seen. */
export function monitorRedis(url = redisUrl()): Promise<RedisMonitor> {
  const { hostname, port, username, password } = new URL(url);
  const socket = connect({ host: hostname || "127.0.0.1", port: Number(port) || 6379 });
  const events = new EventEmitter();
  const monitor: RedisMonitor = {
    on(event, listener) {
      events.on(event, listener);
      return this;
    },
    close: () => socket.destroy(),
  };
  return new Promise((resolve, reject) => {
    const auth = password ? [username ? ["AUTH", username, password] : ["AUTH", password]] : [];
    let pendingOk = auth.length + 1;
    let buffer = "";
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (line.startsWith("-")) return reject(new Error(`redis: ${line.slice(1)}`));
        if (pendingOk > 0) {
          pendingOk--;
          if (pendingOk === 0) resolve(monitor);
          continue;
        }
        events.emit("monitor", monitorArgs(line));
      }
    });
    socket.write([...auth, ["MONITOR"]].map(command).join(""));
  });
}

const command = (args: string[]) =>
  `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;

const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", a: "\x07", b: "\b", '"': '"', "\\": "\\" };

/** The quoted arguments of a MONITOR line, unescaped as Redis' sdscatrepr escaped them; the command lower case. */
export function monitorArgs(line: string): string[] {
  const args = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
    m[1]!.replace(/\\(x[0-9a-f]{2}|.)/g, (_, e: string) =>
      e.length === 3 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (escapes[e] ?? e),
    ),
  );
  if (args[0]) args[0] = args[0].toLowerCase();
  return args;
}
