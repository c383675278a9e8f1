// The admission recorder's HTTPS endpoint, served by the web process beside
// Probot's (which is plain HTTP; the API server calls webhooks over TLS only):
//   POST /attribution/admission/<cluster>   an AdmissionReview from that cluster
// Every request is allowed at once, whatever happens after: the recorder must
// never block, slow or change a write. The review is parsed, its metadata kept
// (admission-record.ts), and the body dropped; recording happens after the
// answer is sent.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { type AdmissionReview, allowAnswer, recordOf } from "../app/attribution/admission-record.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { WriteRecords } from "../state/write-records.ts";

/** Larger than any AdmissionReview (an object and its old version, 1.5 MiB each at most). */
const MAX_BODY = 8 << 20;
const PATH = /^\/attribution\/admission\/([A-Za-z0-9._-]{1,253})$/;

export interface Recorder {
  port: number;
  close(): Promise<void>;
}

export async function startRecorder(params: {
  port: number;
  host?: string;
  certFile: string;
  keyFile: string;
  records: WriteRecords;
  log: QueueLog;
}): Promise<Recorder> {
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
  const server: Server = createServer(
    { cert: readFileSync(params.certFile), key: readFileSync(params.keyFile) },
    (req, res) => {
      const match = PATH.exec((req.url ?? "").split("?")[0] ?? "");
      if (req.method !== "POST" || !match) {
        res.writeHead(404).end();
        return;
      }
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
        keep(review, match[1]!, at);
      });
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
