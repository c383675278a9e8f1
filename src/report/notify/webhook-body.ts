// A Notice as a generic webhook's request: the notice as JSON, signed the way
// GitHub signs its webhooks (HMAC-SHA256, hex, `sha256=` prefix), but over
// `<timestamp>.<body>`, so a receiver that checks the timestamp's age cannot
// be replayed an old delivery. Headers:
//   X-Undrift-Event          drift | resolved | heal | fight | failing | prune-refused
//   X-Undrift-Delivery       one id per notification, the same on every retry (deduplicate on it)
//   X-Undrift-Timestamp      Unix seconds when this attempt was signed
//   X-Undrift-Signature-256  sha256=HMAC_SHA256(secret, timestamp + "." + body)
import { createHmac } from "node:crypto";
import { sameText } from "../../model/same-text.ts";
import type { Notice } from "./notice.ts";

/** The version of the body's shape, so receivers can tell a future change. */
export const WEBHOOK_BODY_VERSION = 1;

/** The body and headers of one signed delivery. */
export function webhookRequest(params: { notice: Notice; delivery: string; secret: string; now?: Date }): {
  body: string;
  headers: Record<string, string>;
} {
  const timestamp = String(Math.floor((params.now ?? new Date()).getTime() / 1000));
  const body = JSON.stringify({ version: WEBHOOK_BODY_VERSION, delivery: params.delivery, ...params.notice });
  return {
    body,
    headers: {
      "content-type": "application/json",
      "x-undrift-event": params.notice.event,
      "x-undrift-delivery": params.delivery,
      "x-undrift-timestamp": timestamp,
      "x-undrift-signature-256": signature(params.secret, timestamp, body),
    },
  };
}

/** `sha256=<hex>` of `timestamp.body` under `secret`. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** What a receiver checks: the signature matches, in constant time, and the timestamp is within `toleranceSeconds`. */
export function verifyWebhook(params: {
  secret: string;
  body: string;
  timestamp: string;
  signature: string;
  toleranceSeconds?: number;
  now?: Date;
}): boolean {
  const age = Math.abs((params.now ?? new Date()).getTime() / 1000 - Number(params.timestamp));
  if (!Number.isFinite(age) || age > (params.toleranceSeconds ?? 300)) return false;
  return sameText(params.signature, signature(params.secret, params.timestamp, params.body));
}
