// The status page's settings, read once where the web process starts:
//   GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET  the GitHub App's OAuth client (Probot's names); both, or the page is off
//   UNDRIFT_BASE_URL                        where people reach the server (`https://undrift.example.com`): the OAuth
//                                           callback is `<base>/status/callback`, and an https base makes the
//                                           session cookie Secure; unset, each request's Host header stands in
//   GHE_HOST, GHE_PROTOCOL                  Probot's: GitHub Enterprise Server's host, for sign-in and the API
// An error names the variable, never its value.
import { UndriftError } from "../model/undrift-error.ts";
import { envValue } from "./env-value.ts";

export interface StatusEnv {
  /** Absent: the page is off, and says how to turn it on. */
  oauth?: { clientId: string; clientSecret: string };
  baseUrl?: URL;
  /** The GitHub web root (sign-in, links): `https://github.com` or `<GHE_PROTOCOL>://<GHE_HOST>`. */
  githubWeb: string;
  /** The REST API root: `https://api.github.com` or `<GHE_PROTOCOL>://<GHE_HOST>/api/v3`. */
  githubApi: string;
}

/** A status page setting that is wrong; the web process does not start. */
export class StatusEnvError extends UndriftError {
  override name = "StatusEnvError";
  readonly permanent = true;
}

export function parseStatusEnv(env: NodeJS.ProcessEnv = process.env): StatusEnv {
  const value = (name: string) => envValue(env, name);
  const clientId = value("GITHUB_CLIENT_ID");
  const clientSecret = value("GITHUB_CLIENT_SECRET");
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    const missing = clientId ? "GITHUB_CLIENT_SECRET" : "GITHUB_CLIENT_ID";
    throw new StatusEnvError(
      `${missing}: required with ${clientId ? "GITHUB_CLIENT_ID" : "GITHUB_CLIENT_SECRET"} (the status page's sign-in)`,
    );
  }
  const base = value("UNDRIFT_BASE_URL");
  if (base !== undefined && (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)))
    throw new StatusEnvError("UNDRIFT_BASE_URL: expected an http:// or https:// URL");
  const host = value("GHE_HOST");
  const protocol = value("GHE_PROTOCOL") ?? "https";
  const githubWeb = host ? `${protocol}://${host}` : "https://github.com";
  const githubApi = host ? `${githubWeb}/api/v3` : "https://api.github.com";
  return {
    ...(clientId && clientSecret ? { oauth: { clientId, clientSecret } } : {}),
    ...(base ? { baseUrl: new URL(base.replace(/\/+$/, "")) } : {}),
    githubWeb,
    githubApi,
  };
}
