// Throwaway credentials for the loopback test cluster: a CA and a serving
// certificate for 127.0.0.1, a service-account signing key, and bearer tokens.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

export interface Pki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  saKey: string;
  saPub: string;
  tokenFile: string;
  adminToken: string;
  readerToken: string;
}

/** The read-only identity: may get, list and watch, never read Secrets (granted in rbac.ts). */
export const readerUser = "undrift-reader";

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
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  openssl(
    ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr"],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "30",
      "-extfile",
      "server.ext",
      "-out",
      "server.crt",
    ],
    dir,
  );
  openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "sa.key"], dir);
  openssl(["pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub"], dir);
  const adminToken = randomBytes(24).toString("hex");
  const readerToken = randomBytes(24).toString("hex");
  // token,user,uid,"group1,group2" as kube-apiserver's --token-auth-file expects.
  writeFileSync(
    join(dir, "tokens.csv"),
    `${adminToken},undrift-admin,undrift-admin,"system:masters"\n${readerToken},${readerUser},${readerUser}\n`,
    { mode: 0o600 },
  );
  return {
    caCert: join(dir, "ca.crt"),
    serverCert: join(dir, "server.crt"),
    serverKey: join(dir, "server.key"),
    saKey: join(dir, "sa.key"),
    saPub: join(dir, "sa.pub"),
    tokenFile: join(dir, "tokens.csv"),
    adminToken,
    readerToken,
  };
}
