// People of the test cluster, as a person reaches a cluster: a client
// certificate its CA signed (CN the username, O the group), in a kubeconfig of
// their own, and kubectl run as them. alice (group sre) and bob (group dev) are
// the two the attribution tests name; an edit RoleBinding for both groups in a
// test's namespace lets them change its objects.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { kubeconfigPath } from "./cluster.ts";

/** Writes `dir/<user>.kubeconfig` for `user` in `group`, signed by the test cluster's CA; returns its path. */
export function personKubeconfig(dir: string, user: string, group: string): string {
  const pki = join(dirname(kubeconfigPath()), "pki");
  const key = join(dir, `${user}.key`);
  const csr = join(dir, `${user}.csr`);
  const crt = join(dir, `${user}.crt`);
  const run = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
  run(["req", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${user}/O=${group}`, "-keyout", key, "-out", csr]);
  run(
    ["x509", "-req", "-in", csr, "-CA", join(pki, "ca.crt"), "-CAkey", join(pki, "ca.key"), "-CAcreateserial"].concat([
      "-days",
      "1",
      "-out",
      crt,
    ]),
  );
  const admin = parse(readFileSync(kubeconfigPath(), "utf8")) as { clusters: Array<{ name: string }> };
  const file = join(dir, `${user}.kubeconfig`);
  writeFileSync(
    file,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: admin.clusters,
      users: [{ name: user, user: { "client-certificate": crt, "client-key": key } }],
      contexts: [{ name: user, context: { cluster: admin.clusters[0]!.name, user } }],
      "current-context": user,
    }),
    { mode: 0o600 },
  );
  return file;
}

/** kubectl with `kubeconfig` (a person's), the way that person makes drift; `env` for KUBE_EDITOR and the like. */
export async function kubectlAs(kubeconfig: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await promisify(execFile)("kubectl", ["--kubeconfig", kubeconfig, ...args], {
    env: { ...process.env, ...env },
  });
  return stdout;
}
