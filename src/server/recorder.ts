// The admission recorder's HTTPS endpoint, served by the web process beside
// Probot's (which is plain HTTP; the API server calls webhooks over TLS only):
//   POST /attribution/admission/<cluster>/<token>   an AdmissionReview from that cluster (recorder-token.ts)
// Every request is allowed at once, whatever happens after: the recorder must
// never block, slow or change a write. The review is parsed, its metadata kept
// (admission-record.ts), and the body dropped; recording happens after the
// answer is sent.
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { QueueLog } from "../queue/queue-log.ts";
import type { WriteRecords } from "../state/write-records.ts";
import { type AdmissionReview, allowAnswer, recordOf } from "./attribution/admission-record.ts";
import { admissionPost } from "./attribution/recorder-token.ts";
import { refusalLog } from "./attribution/refusal-log.ts";

/** Larger than any AdmissionReview (an object and its old version, 1.5 MiB each at most). */
const MAX_BODY = 8 << 20;

export interface Recorder {
  port: number;
  close(): Promise<void>;
}

export interface RecorderParams {
  port: number;
  host?: string;
  certFile: string;
  keyFile: string;
  records: WriteRecords;
  /** UNDRIFT_RECORDER_SECRET: a review is kept only when its path carries its cluster's token (recorder-token.ts). */
  secret: string;
  /** Asks clients for a certificate and verifies it against this CA (the audit receiver's clientCertificate). */
  clientCaFile?: string;
  log: QueueLog;
  /**
   * The audit receiver (audit-receiver.ts), served here too: kube-apiserver sends its webhook's bearer token over
   * https only, so an apiserver that reaches undrift without a TLS-terminating proxy posts to this port.
   */
  audit?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

export async function startRecorder(params: RecorderParams): Promise<Recorder> {
  const handle = admissionHandler(params);
  const server: Server = createServer(
    {
      cert: readFileSync(params.certFile),
      key: readFileSync(params.keyFile),
      // Asked, never required: the admission webhooks present none, and the audit receiver decides per cluster.
      ...(params.clientCaFile
        ? { ca: readFileSync(params.clientCaFile), requestCert: true, rejectUnauthorized: false }
        : {}),
    },
    (req, res) => {
      if (params.audit && (req.url ?? "").startsWith("/attribution/audit")) {
        params.audit(req, res).catch((error: unknown) => {
          params.log.error({ err: error }, "audit receiver: a post failed (500)");
          if (!res.headersSent) res.writeHead(500).end();
        });
        return;
      }
      handle(req, res);
    },
  );
  server.listen(params.port, params.host ?? "0.0.0.0");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The admission posts: each allowed at once, its review's metadata kept after the answer. */
function admissionHandler(params: RecorderParams): (req: IncomingMessage, res: ServerResponse) => void {
  const { records, log } = params;
  // Said once per outage, not once per write: a busy cluster would flood the log.
  let failing = false;
  const keep = (review: AdmissionReview, cluster: string, at: Date) => {
    const record = recordOf(review, cluster, at);
    if (!record) return;
    records.add(record).then(
      () => {
        failing = false;
      },
      (error: unknown) => {
        if (failing) return;
        failing = true;
        log.error({ err: error, cluster }, "admission recorder: could not keep a write's record (writes still pass)");
      },
    );
  };
  const refused = refusalLog((count, cluster: string | undefined) =>
    log.warn(
      { cluster, refused: count },
      "admission recorder: refused a review without its cluster's token (401); nothing kept",
    ),
  );
  return (req, res) => {
    const post = admissionPost(params.secret, req.method, req.url);
    if (!post.ok && post.status === 404) {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    if (!post.ok) {
      // Not the API server of that cluster: nothing is kept. With failurePolicy Ignore a real write still passes.
      refused(post.cluster);
      res.writeHead(401, { "content-type": "text/plain" }).end("unauthorized\n");
      req.resume();
      return;
    }
    const cluster = post.cluster;
    const at = new Date();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("end", () => {
      let review: AdmissionReview = {};
      try {
        if (size <= MAX_BODY) review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as AdmissionReview;
      } catch {
        // Not a review: allowed all the same, and nothing is kept.
      }
      chunks.length = 0;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(allowAnswer(review)));
      keep(review, cluster, at);
    });
  };
}
