// Probot's request log (pino-http) binds each request, headers and all, to a child logger as it arrives: the
// audit receiver's bearer token must come out redacted, while the handler still reads the header itself.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { pinoHttp } from "pino-http";
import { describe, expect, it } from "vitest";
import { type ProbotLogger, withoutAuthorization } from "../../../src/server/probot-log.ts";
import { eventually } from "../../helpers/eventually.ts";

describe("the web process's request log", () => {
  it("shows a request's Authorization header as [redacted], and the handler still reads it", async () => {
    let logged = "";
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const log = withoutAuthorization(pino(sink) as unknown as ProbotLogger);
    const httpLog = pinoHttp({ logger: log.child({ name: "http" }) as unknown as pino.Logger });
    let seen = "";
    const server = createServer((req, res) => {
      httpLog(req, res);
      seen = req.headers.authorization ?? "";
      res.end("ok");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const token = "Bearer 0123456789abcdef0123456789abcdef-audit";
      await (
        await fetch(`http://127.0.0.1:${port}/attribution/audit/prod`, { headers: { authorization: token } })
      ).text();
      // pino-http writes its line when the response finishes, which may come after the client has read it.
      await eventually("the request's log line", () => logged.includes("/attribution/audit/prod"), {
        timeoutMs: 10_000,
        intervalMs: 10,
      });
      expect(seen).toBe(token);
      expect(logged).toContain('"authorization":"[redacted]"');
      expect(logged).toContain("/attribution/audit/prod");
      expect(logged).not.toContain("0123456789abcdef");
    } finally {
      server.close();
    }
  });
});
