// client-node's agent (KubeConfig.applyToHTTPSOptions) is an https.Agent made
// without keepAlive, so every request says `Connection: close` and the next one
// opens a new TCP and TLS connection: two more round trips before its first
// byte, which a cluster in another region pays on every request of a scan.
// client-go keeps its connections; so does undrift, with one kept-alive agent
// per set of TLS credentials (a cluster and user), built from the same options.
import { createHash } from "node:crypto";
import { Agent, type RequestOptions } from "node:https";

const tlsFields = ["ca", "cert", "key", "pfx", "passphrase", "rejectUnauthorized", "servername"] as const;

const agents = new Map<string, Agent>();

/** The kept-alive agent for the TLS credentials in `options` (after applyToHTTPSOptions has filled them in). */
export function keptAliveAgent(options: RequestOptions): Agent {
  const tls = Object.fromEntries(tlsFields.map((field) => [field, options[field]]));
  // The key is a digest, so no credential is kept in a second place as text.
  const key = createHash("sha256")
    .update(JSON.stringify(tlsFields.map((field) => String(tls[field] ?? ""))))
    .digest("hex");
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ ...tls, keepAlive: true });
    agents.set(key, agent);
  }
  return agent;
}
