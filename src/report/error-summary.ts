// An error as it may leave the process (check run, audit, job result): one
// line, capped, with anything shaped like a credential blotted out. The engine
// already masks Secret values; this catches what a library put in a message
// (a token in a URL, an Authorization header echoed back, a kubeconfig's password).

import { oneLine } from "../model/one-line.ts";

const CREDENTIALS: ReadonlyArray<[RegExp, string]> = [
  // GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_, github_pat_.
  [/\b(gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})/g, "***"],
  [/\b(bearer|token|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 ***"],
  // user:password@ in URLs (redis://:secret@host, https://x:y@host).
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, "$1***@"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, "***"],
  [
    /\b(password|passwd|secret|token|client-key-data|client-certificate-data)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
    "$1$2***",
  ],
];

/** The message of `error` on one line, at most `max` characters, credentials masked. */
export function errorSummary(error: unknown, max = 1000): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const [pattern, replacement] of CREDENTIALS) text = text.replace(pattern, replacement);
  return oneLine(text, { fold: "breaks", max });
}
