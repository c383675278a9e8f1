// The bearer token each registered cluster's kube-apiserver presents to the
// audit receiver (the registry's `audit.token`, from an environment variable or
// a file), read once when the web process starts. A token is at least 32
// characters, and no two clusters share one: a post is refused unless it
// carries the token of the cluster its path names, so one cluster's
// credentials can never write records for another. Errors name the cluster
// and where the token was to be read, never the token.
import { UndriftError } from "../model/undrift-error.ts";
import { readSecret } from "./channel-registry.ts";
import type { ClusterRegistry } from "./cluster-registry.ts";

/** The fewest characters an audit token may have (e.g. openssl rand -hex 32). */
export const AUDIT_TOKEN_MIN = 32;

/** A cluster's audit token cannot be used: unset, unreadable, too short or shared; an operator must fix it. */
export class AuditTokenError extends UndriftError {
  override name = "AuditTokenError";
  readonly permanent = true;
}

/** Each cluster with `audit:` to its token; an empty map when no cluster has one (the receiver is off). */
export async function readAuditTokens(
  registry: ClusterRegistry,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const [cluster, entry] of Object.entries(registry.clusters)) {
    if (!entry.audit?.token) continue;
    const what = `cluster "${cluster}" audit.token`;
    let token: string;
    try {
      token = await readSecret(entry.audit.token, what, env);
    } catch (error) {
      throw new AuditTokenError((error as Error).message, { cause: error });
    }
    if (token.length < AUDIT_TOKEN_MIN)
      throw new AuditTokenError(`${what}: at least ${AUDIT_TOKEN_MIN} characters (e.g. openssl rand -hex 32)`);
    const other = owners.get(token);
    if (other !== undefined)
      throw new AuditTokenError(`${what}: the same token as cluster "${other}"'s; each cluster needs its own`);
    owners.set(token, cluster);
    tokens.set(cluster, token);
  }
  return tokens;
}

/** Each cluster with `audit.clientCertificate` to the CN its apiserver's certificate carries; one cluster per CN. */
export function auditClientNames(registry: ClusterRegistry): Map<string, string> {
  const names = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const [cluster, entry] of Object.entries(registry.clusters)) {
    const name = entry.audit?.clientCertificate?.commonName;
    if (name === undefined) continue;
    const other = owners.get(name);
    if (other !== undefined)
      throw new AuditTokenError(
        `cluster "${cluster}" audit.clientCertificate.commonName: the same as cluster "${other}"'s; each cluster needs its own`,
      );
    owners.set(name, cluster);
    names.set(cluster, name);
  }
  return names;
}
