// The token in a cluster's recorder URL (`/attribution/admission/<cluster>/<token>`):
// the recorder keeps records only of reviews that come with it, so nobody who can
// reach its port can post a made-up review and have a person named for a write they
// never made. A URL token, because on EKS, GKE and AKS the API server cannot be given
// a client certificate or bearer token for webhooks. It is HMAC-SHA256 of
// `undrift-recorder:<cluster>` under UNDRIFT_RECORDER_SECRET, in hex: the web process
// and `undrift attribution install` derive the same token, nothing stores it, one
// cluster's token is no other's, and the prefix keeps it apart from any other use of
// the same secret. README.md says the same words (a unit test holds them together).
import { createHmac } from "node:crypto";
import { sameText } from "../../model/same-text.ts";

/** What the token is the HMAC of, for `cluster`. */
export function recorderTokenMessage(cluster: string): string {
  return `undrift-recorder:${cluster}`;
}

export function recorderToken(secret: string, cluster: string): string {
  return createHmac("sha256", secret).update(recorderTokenMessage(cluster)).digest("hex");
}

/** Whether `token` is `cluster`'s, compared in constant time. */
export function isRecorderToken(secret: string, cluster: string, token: string): boolean {
  return sameText(token, recorderToken(secret, cluster));
}

const ADMISSION = "/attribution/admission";
const CLUSTER_NAME = /^[A-Za-z0-9._-]{1,253}$/;

/**
 * How the recorder answers a request, before its body is read: a POST under `/attribution/admission/` is a
 * review to keep only with its cluster's token, and any other such POST (no token, a malformed one, a wrong one,
 * no cluster) is unauthenticated: 401, as README.md promises. Anything that is no POST to that path is 404.
 * `cluster` on a refusal is there only when it is a well-formed name, so a log line never repeats a raw path.
 */
export function admissionPost(
  secret: string,
  method: string | undefined,
  url: string | undefined,
): { ok: true; cluster: string } | { ok: false; status: 401 | 404; cluster?: string } {
  const path = (url ?? "").split("?")[0] ?? "";
  if (method !== "POST" || (path !== ADMISSION && !path.startsWith(`${ADMISSION}/`))) return { ok: false, status: 404 };
  const [cluster = "", token, ...rest] = path.slice(ADMISSION.length + 1).split("/");
  const named = CLUSTER_NAME.test(cluster) ? { cluster } : {};
  if (token === undefined || rest.length > 0 || !named.cluster || !isRecorderToken(secret, cluster, token))
    return { ok: false, status: 401, ...named };
  return { ok: true, cluster };
}
