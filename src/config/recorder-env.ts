// The admission recorder's settings, read once where the web process starts:
//   UNDRIFT_RECORDER_PORT       the HTTPS port the API servers' webhook calls reach (off when unset)
//   UNDRIFT_RECORDER_CERT_FILE  its serving certificate (PEM), for the name or address in the webhook's URL
//   UNDRIFT_RECORDER_KEY_FILE   that certificate's key
//   UNDRIFT_RECORDER_HOST       the address to listen on (default 0.0.0.0)
//   UNDRIFT_RECORDER_SECRET     at least 32 characters; each cluster's URL token is derived from it (recorder-token.ts)
//   UNDRIFT_RECORDER_CLIENT_CA_FILE  optional: the CA of the client certificates audit webhooks may present instead
//                               of a token (the registry's audit.clientCertificate)
// The recorder is its own HTTPS server beside Probot's plain HTTP one: the API
// server calls webhooks over TLS only. An error names the variable, never a value.
import { existsSync } from "node:fs";
import { envValue } from "./env-value.ts";
import { ServerEnvError } from "./server-env.ts";

export interface RecorderEnv {
  port: number;
  host: string;
  certFile: string;
  keyFile: string;
  secret: string;
  /** The CA that signs the apiservers' audit client certificates, when any cluster uses one. */
  clientCaFile?: string;
}

/** The fewest characters UNDRIFT_RECORDER_SECRET may have: each cluster's token is derived from it. */
export const RECORDER_SECRET_MIN = 32;

/** UNDRIFT_RECORDER_SECRET when it is set and long enough; the web process and `attribution install` both read it. */
export function recorderSecret(env: NodeJS.ProcessEnv): string | undefined {
  const secret = envValue(env, "UNDRIFT_RECORDER_SECRET");
  return secret && secret.length >= RECORDER_SECRET_MIN ? secret : undefined;
}

/** The recorder's settings, or undefined when UNDRIFT_RECORDER_PORT is unset (the recorder is off). */
export function parseRecorderEnv(env: NodeJS.ProcessEnv = process.env): RecorderEnv | undefined {
  const value = (name: string) => envValue(env, name);
  const portText = value("UNDRIFT_RECORDER_PORT");
  const certFile = value("UNDRIFT_RECORDER_CERT_FILE");
  const keyFile = value("UNDRIFT_RECORDER_KEY_FILE");
  if (portText === undefined) {
    const stray = certFile ? "UNDRIFT_RECORDER_CERT_FILE" : keyFile ? "UNDRIFT_RECORDER_KEY_FILE" : undefined;
    if (stray) throw new ServerEnvError(`${stray}: set without UNDRIFT_RECORDER_PORT, which turns the recorder on`);
    return undefined;
  }
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new ServerEnvError("UNDRIFT_RECORDER_PORT: expected a port number from 1 to 65535");
  for (const [name, file] of [
    ["UNDRIFT_RECORDER_CERT_FILE", certFile],
    ["UNDRIFT_RECORDER_KEY_FILE", keyFile],
  ] as const) {
    if (!file)
      throw new ServerEnvError(
        `${name}: required with UNDRIFT_RECORDER_PORT (the API server calls webhooks over https)`,
      );
    if (!existsSync(file)) throw new ServerEnvError(`${name}: ${file}: no such file`);
  }
  const secret = recorderSecret(env);
  if (!secret)
    throw new ServerEnvError(
      `UNDRIFT_RECORDER_SECRET: required with UNDRIFT_RECORDER_PORT, at least ${RECORDER_SECRET_MIN} characters (e.g. openssl rand -hex 32)`,
    );
  const clientCaFile = value("UNDRIFT_RECORDER_CLIENT_CA_FILE");
  if (clientCaFile !== undefined && !existsSync(clientCaFile))
    throw new ServerEnvError(`UNDRIFT_RECORDER_CLIENT_CA_FILE: ${clientCaFile}: no such file`);
  return {
    port,
    host: value("UNDRIFT_RECORDER_HOST") ?? "0.0.0.0",
    certFile: certFile!,
    keyFile: keyFile!,
    secret,
    ...(clientCaFile ? { clientCaFile } : {}),
  };
}
