// Cookies the status page sets, signed with an HMAC so that a changed value is
// refused: the session id, and the sign-in's `state` with where to return.
// HttpOnly and SameSite=Lax always; Secure when the server's base URL is https.
import { createHmac, hkdfSync } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { sameText } from "../../model/same-text.ts";

export interface CookieJar {
  /** The verified value of `name`, or undefined when absent or not signed by this key. */
  read(req: IncomingMessage, name: string): string | undefined;
  /** A Set-Cookie header value; maxAge 0 clears it. */
  write(name: string, value: string, options: { maxAge: number; path?: string }): string;
}

/** The key comes from the OAuth client secret, which every web replica has: no setting of its own to keep in step. */
export function cookieJar(params: { clientSecret: string; secure: boolean }): CookieJar {
  const key = Buffer.from(hkdfSync("sha256", params.clientSecret, "undrift", "status page cookies", 32));
  const sign = (value: string) => createHmac("sha256", key).update(value).digest("base64url");
  return {
    read(req, name) {
      const raw = parseCookies(req.headers.cookie ?? "")[name];
      if (!raw) return undefined;
      const dot = raw.lastIndexOf(".");
      if (dot < 0) return undefined;
      const value = raw.slice(0, dot);
      return sameText(raw.slice(dot + 1), sign(value)) ? value : undefined;
    },
    write(name, value, options) {
      return [
        `${name}=${value ? `${value}.${sign(value)}` : ""}`,
        `Path=${options.path ?? "/"}`,
        `Max-Age=${options.maxAge}`,
        "HttpOnly",
        "SameSite=Lax",
        ...(params.secure ? ["Secure"] : []),
      ].join("; ");
    },
  };
}

function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return cookies;
}
