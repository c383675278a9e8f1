// The audit webhook backend's receiving end, on the web process's port (behind
// TLS) and on the recorder's HTTPS port (a self-managed cluster's
// kube-apiserver, `--audit-webhook-config-file`):
//   POST /attribution/audit/<cluster>   an audit.k8s.io/v1 EventList, with that cluster's bearer token
// The token (or client certificate CN) is the one the cluster registry names
// for that cluster (`audit`); any other, another cluster's among them, is answered 401
// and said in the log (at most once a minute, with the count, never the body
// or the token). A body that is no EventList is answered 400 with one line.
// A flood is absorbed, not held: a body is capped, so are the bodies read at
// once (beyond, 429 and the apiserver's batch backend retries), the records of
// a batch go to Redis in one pipeline, and a batch is answered only once they
// are kept. requestObject and responseObject are parsed with the rest of the
// JSON and then dropped: a record keeps only the paths a patch names, never a
// value.
//
//   options.addHandler(auditRoutes({ tokens, records, kinds, log }));
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { sameText } from "../../model/same-text.ts";
import type { WriteRecord } from "../../model/write-record.ts";
import type { WriteRecords } from "../../state/write-records.ts";
import { isFinishedWrite, parseEventList, recordOfEvent, resourceOf } from "./audit-event-record.ts";
import type { AuditKinds } from "./audit-kinds.ts";
import { refusalLog } from "./refusal-log.ts";

/** Larger than the batch an apiserver sends with --audit-webhook-truncate-enabled (10 MiB at most). */
export const MAX_AUDIT_BODY = 12 << 20;
/** The bodies read at one time, in bytes: what a flood can hold in memory, whatever its rate. */
export const MAX_AUDIT_IN_FLIGHT = 48 << 20;
const PATH = /^\/attribution\/audit\/([A-Za-z0-9._-]{1,253})$/;

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

interface AuditRoutesParams {
  /** Each cluster's token, as the registry names it (config/audit-tokens.ts). */
  tokens: ReadonlyMap<string, string>;
  /** Each cluster's client certificate CN, checked when the post came over TLS with a verified certificate. */
  clientNames?: ReadonlyMap<string, string>;
  records: WriteRecords;
  kinds: AuditKinds;
  log: Log;
  maxBody?: number;
  maxInFlight?: number;
}

export function auditRoutes(
  params: AuditRoutesParams,
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const receiver = new AuditReceiver(params);
  return (req, res) => receiver.handle(req, res);
}

const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers }).end(`${text}\n`);

/** One receiver: the bytes in flight, the refusals not yet logged, and whether Redis is failing. */
class AuditReceiver {
  private readonly params: AuditRoutesParams;
  private readonly maxBody: number;
  private readonly maxInFlight: number;
  private inFlight = 0;
  private readonly refused: (cluster: string, why: string) => void;
  // Said once per outage, not once per batch.
  private failing = false;

  constructor(params: AuditRoutesParams) {
    this.params = params;
    this.maxBody = params.maxBody ?? MAX_AUDIT_BODY;
    this.maxInFlight = params.maxInFlight ?? MAX_AUDIT_IN_FLIGHT;
    this.refused = refusalLog((count, cluster: string, why: string) =>
      params.log.warn(
        { cluster, refused: count },
        `audit receiver: refused a post for cluster ${cluster} (401, ${why}); nothing kept`,
      ),
    );
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (!path.startsWith("/attribution/audit")) return false;
    const match = PATH.exec(path);
    if (req.method !== "POST" || !match) {
      req.resume();
      answer(res, 404, "not found");
      return true;
    }
    const cluster = match[1]!;
    if (!this.authorized(req, cluster)) {
      req.resume();
      answer(res, 401, "unauthorized");
      return true;
    }
    const { maxBody } = this;
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > maxBody) {
      req.resume();
      answer(res, 413, `body over ${maxBody} bytes: set --audit-webhook-truncate-enabled`, { connection: "close" });
      return true;
    }
    const reserved = Math.max(declared, 64 << 10);
    if (this.inFlight + reserved > this.maxInFlight) {
      req.resume();
      answer(res, 429, "busy: retry", { "retry-after": "1" });
      return true;
    }
    this.inFlight += reserved;
    try {
      await this.receive(req, res, cluster);
    } finally {
      this.inFlight -= reserved;
    }
    return true;
  }

  /** The cluster's bearer token or client certificate; a refusal is logged at most once a minute, with its count. */
  private authorized(req: IncomingMessage, cluster: string): boolean {
    // Probot's request log shows it redacted (server/probot-log.ts withoutAuthorization).
    const authorization = req.headers.authorization ?? "";
    const expected = this.params.tokens.get(cluster);
    const presented = /^Bearer (.+)$/i.exec(authorization)?.[1]?.trim();
    const byToken = expected !== undefined && presented !== undefined && sameText(presented, expected);
    const certified = this.params.clientNames?.get(cluster);
    const byCertificate = certified !== undefined && certificateName(req) === certified;
    if (byToken || byCertificate) return true;
    const registered = expected !== undefined || certified !== undefined;
    this.refused(
      cluster,
      !registered ? "no audit credential is registered for it" : presented ? "wrong token" : "no token",
    );
    return false;
  }

  /** An authorized post within the limits: its EventList read, the records of finished writes kept, then answered. */
  private async receive(req: IncomingMessage, res: ServerResponse, cluster: string): Promise<void> {
    const { kinds, log, records } = this.params;
    const { maxBody } = this;
    const body = await readBody(req, maxBody);
    if (body === undefined) {
      answer(res, 413, `body over ${maxBody} bytes: set --audit-webhook-truncate-enabled`, { connection: "close" });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      answer(res, 400, "not JSON: expected an audit.k8s.io/v1 EventList");
      return;
    }
    const list = parseEventList(parsed);
    parsed = undefined;
    if (!list.ok) {
      log.warn({ cluster }, `audit receiver: refused a post for cluster ${cluster} (400): ${list.reason}`);
      answer(res, 400, list.reason);
      return;
    }
    const writes = list.events.filter(isFinishedWrite);
    await kinds.learn(
      cluster,
      writes.map(resourceOf).filter((r) => r !== undefined),
    );
    const kept: WriteRecord[] = [];
    for (const event of writes) {
      const record = recordOfEvent(event, cluster, (group, resource) => kinds.kindOf(cluster, group, resource));
      if (record) kept.push(record);
    }
    try {
      await records.addMany(kept);
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        log.error({ err: error, cluster }, "audit receiver: could not keep the records of writes (503)");
      this.failing = true;
      // The apiserver's batch backend retries a 5xx with backoff, then drops the batch: the cluster never waits.
      answer(res, 503, "could not keep the records: retry", { "retry-after": "1" });
      return;
    }
    answer(res, 200, `kept ${kept.length} of ${list.events.length}`);
  }
}

/** The CN of the client certificate the TLS layer verified against the client CA, or undefined. */
function certificateName(req: IncomingMessage): string | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== "function" || !socket.authorized) return undefined;
  const cn = socket.getPeerCertificate().subject?.CN;
  return typeof cn === "string" ? cn : undefined;
}

/** The body, or undefined when it grows past `max` (the rest is drained, not kept). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on("end", () => resolve(size <= max ? Buffer.concat(chunks) : undefined));
    req.on("error", reject);
  });
}
