// Throwaway credentials for the loopback test cluster: a CA, serving certificates
// for 127.0.0.1, the aggregator's front-proxy client certificate, a service-account
// signing key, and one bearer token per identity.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

/** The identities that authenticate with a token; the controllers' names are the ones bootstrap RBAC binds. */
export const identities = {
  admin: { user: "undrift-admin", groups: ["system:masters"] },
  reader: { user: "undrift-reader", groups: [] },
  controllerManager: { user: "system:kube-controller-manager", groups: [] },
  scheduler: { user: "system:kube-scheduler", groups: [] },
  // kwok plays every kubelet at once (node and pod status, leases, evictions): an admin, as in kwokctl's clusters.
  kwok: { user: "kwok-controller", groups: ["system:masters"] },
  metricsServer: { user: "metrics-server", groups: [] },
} as const;

export type Identity = keyof typeof identities;

export interface Pki {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  /** Serving certificate of the processes the API server calls (webhook, metrics-server, kwok's kubelet endpoint). */
  componentCert: string;
  componentKey: string;
  /** Client certificate the aggregator presents to metrics-server (--proxy-client-cert-file). */
  proxyClientCert: string;
  proxyClientKey: string;
  saKey: string;
  saPub: string;
  tokenFile: string;
  tokens: Record<Identity, string>;
  adminToken: string;
  readerToken: string;
}

/** The read-only identity: may get, list and watch, never read Secrets (granted in rbac.ts). */
export const readerUser = identities.reader.user;

/** CN the API server's front-proxy certificate carries, and the one name --requestheader-allowed-names admits. */
export const frontProxyUser = "front-proxy-client";

/** DNS names the API server checks a service-backed APIService's or webhook's certificate against. */
export const componentDnsNames = ["metrics-server.kube-system.svc", "undrift-webhook.undrift-system.svc"];

/** Signs `<name>.crt` with the CA for `subject`, with the given extensions. */
function signed(dir: string, name: string, subject: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(
    ["req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", `${name}.key`, "-out", `${name}.csr`],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "30",
      "-extfile",
      `${name}.ext`,
      "-out",
      `${name}.crt`,
    ],
    dir,
  );
}

/** Writes the cluster's certificates, keys and token file into `dir`. */
export function makePki(dir: string): Pki {
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "30",
      "-subj",
      "/CN=undrift-test-ca",
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
    ],
    dir,
  );
  signed(dir, "server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  const dns = componentDnsNames.map((name) => `DNS:${name}`).join(",");
  signed(
    dir,
    "component",
    "/CN=127.0.0.1",
    `subjectAltName=IP:127.0.0.1,DNS:localhost,${dns}\nextendedKeyUsage=serverAuth\n`,
  );
  signed(dir, "front-proxy-client", `/CN=${frontProxyUser}`, "extendedKeyUsage=clientAuth\n");
  openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "sa.key"], dir);
  openssl(["pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub"], dir);
  const tokens = Object.fromEntries(
    Object.keys(identities).map((id) => [id, randomBytes(24).toString("hex")]),
  ) as Record<Identity, string>;
  // token,user,uid,"group1,group2" as kube-apiserver's --token-auth-file expects.
  const lines = Object.entries(identities).map(([id, { user, groups }]) => {
    const group = groups.length ? `,"${groups.join(",")}"` : "";
    return `${tokens[id as Identity]},${user},${user}${group}\n`;
  });
  writeFileSync(join(dir, "tokens.csv"), lines.join(""), { mode: 0o600 });
  return {
    caCert: join(dir, "ca.crt"),
    caKey: join(dir, "ca.key"),
    serverCert: join(dir, "server.crt"),
    serverKey: join(dir, "server.key"),
    componentCert: join(dir, "component.crt"),
    componentKey: join(dir, "component.key"),
    proxyClientCert: join(dir, "front-proxy-client.crt"),
    proxyClientKey: join(dir, "front-proxy-client.key"),
    saKey: join(dir, "sa.key"),
    saPub: join(dir, "sa.pub"),
    tokenFile: join(dir, "tokens.csv"),
    tokens,
    adminToken: tokens.admin,
    readerToken: tokens.reader,
  };
}
