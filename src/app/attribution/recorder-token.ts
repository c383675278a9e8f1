// The token in a cluster's recorder URL (`/attribution/admission/<cluster>/<token>`):
// the recorder keeps records only of reviews that come with it, so nobody who can
// reach its port can post a made-up review and have a person named for a write they
// never made. A URL token, because on EKS, GKE and AKS the API server cannot be given
// a client certificate or bearer token for webhooks. It is HMAC-SHA256 of the cluster
// name under UNDRIFT_RECORDER_SECRET: the web process and `undrift attribution install`
// derive the same token, nothing stores it, and one cluster's token is no other's.
import { createHmac } from "node:crypto";
import { sameText } from "../../model/same-text.ts";

export function recorderToken(secret: string, cluster: string): string {
  return createHmac("sha256", secret).update(`undrift-recorder:${cluster}`).digest("hex");
}

/** Whether `token` is `cluster`'s, compared in constant time. */
export function isRecorderToken(secret: string, cluster: string, token: string): boolean {
  return sameText(token, recorderToken(secret, cluster));
}
