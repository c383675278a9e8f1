// Starts and stops the loopback test cluster: etcd and kube-apiserver as
// detached processes whose state lives in one folder, so any later process
// (a second cluster:up, the test suite, cluster:down) can find and reuse them.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinaries } from "./build.ts";
import { writeKubeconfig } from "./kubeconfig.ts";
import { makePki } from "./pki.ts";
import { readerRbac } from "./rbac.ts";

/** Where a running cluster keeps its data, logs and kubeconfig; UNDRIFT_CLUSTER_DIR moves it. */
export const stateDir = process.env.UNDRIFT_CLUSTER_DIR ?? join(tmpdir(), "undrift-cluster");
const stateFile = join(stateDir, "state.json");

interface State {
  server: string;
  kubeconfig: string;
  pids: number[];
  caCert: string;
  adminToken: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One HTTPS call to the API server as the admin; resolves with status and body. */
function call(state: Pick<State, "server" | "caCert" | "adminToken">, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${state.server}${path}`,
      {
        method,
        ca: readFileSync(state.caCert),
        headers: { authorization: `Bearer ${state.adminToken}`, "content-type": "application/apply-patch+yaml" },
        timeout: 5000,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: timed out`)));
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function ready(state: State): Promise<boolean> {
  try {
    return (await call(state, "GET", "/readyz")).status === 200;
  } catch {
    return false;
  }
}

/** The running cluster's state, or undefined when none answers. */
export async function running(): Promise<State | undefined> {
  if (!existsSync(stateFile)) return undefined;
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as State;
  if (!state.pids.every(alive)) return undefined;
  return (await ready(state)) ? state : undefined;
}

function start(binary: string, args: string[], log: string): ChildProcess {
  const out = openSync(log, "a");
  const child = spawn(binary, args, { detached: true, stdio: ["ignore", out, out] });
  child.unref();
  return child;
}

async function waitReady(state: State, children: Array<[ChildProcess, string]>, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const dead = children.find(([c]) => c.exitCode !== null || c.signalCode !== null);
    if (dead) throw new Error(`${dead[1]} shows why it exited: ${readFileSync(dead[1], "utf8").slice(-2000)}`);
    if (await ready(state)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the API server was not ready within ${seconds}s; see ${children.map(([, log]) => log).join(", ")}`);
}

/** Starts a cluster unless one runs; returns the kubeconfig path and whether this call started it. */
export async function up(): Promise<{ kubeconfig: string; started: boolean }> {
  const existing = await running();
  if (existing) return { kubeconfig: existing.kubeconfig, started: false };
  await down();
  const bins = ensureBinaries();
  mkdirSync(join(stateDir, "pki"), { recursive: true });
  const pki = makePki(join(stateDir, "pki"));
  const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const peerUrl = `http://127.0.0.1:${etcdPeer}`;
  const etcdLog = join(stateDir, "etcd.log");
  const apiserverLog = join(stateDir, "kube-apiserver.log");
  const etcd = start(
    bins.etcd,
    [
      `--data-dir=${join(stateDir, "etcd")}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=default=${peerUrl}`,
      "--unsafe-no-fsync=true",
      "--quota-backend-bytes=4294967296",
      "--log-level=warn",
    ],
    etcdLog,
  );
  const apiserver = start(
    bins.kubeApiserver,
    [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${join(stateDir, "pki")}`,
      `--tls-cert-file=${pki.serverCert}`,
      `--tls-private-key-file=${pki.serverKey}`,
      `--secure-port=${apiPort}`,
      "--bind-address=127.0.0.1",
      "--advertise-address=127.0.0.1",
      "--service-cluster-ip-range=10.0.0.0/16",
      "--allow-privileged=true",
      "--disable-admission-plugins=ServiceAccount",
      "--authorization-mode=RBAC",
      `--token-auth-file=${pki.tokenFile}`,
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      `--service-account-key-file=${pki.saPub}`,
      `--service-account-signing-key-file=${pki.saKey}`,
      // The benchmark's reference (kubectl diff) sends thousands of requests; do not let the default limits shape it.
      "--max-requests-inflight=2000",
      "--max-mutating-requests-inflight=1000",
      "--enable-priority-and-fairness=false",
    ],
    apiserverLog,
  );
  const state: State = {
    server: `https://127.0.0.1:${apiPort}`,
    kubeconfig: join(stateDir, "kubeconfig"),
    pids: [etcd.pid ?? -1, apiserver.pid ?? -1],
    caCert: pki.caCert,
    adminToken: pki.adminToken,
  };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  await waitReady(
    state,
    [
      [etcd, etcdLog],
      [apiserver, apiserverLog],
    ],
    120,
  );
  for (const object of readerRbac) {
    const path = `/apis/rbac.authorization.k8s.io/v1/${object.kind.toLowerCase()}s/${object.metadata.name}?fieldManager=undrift-cluster&force=true`;
    const res = await call(state, "PATCH", path, object);
    if (res.status >= 300)
      throw new Error(`applying ${object.kind}/${object.metadata.name}: ${res.status} ${res.body}`);
  }
  writeKubeconfig(state.kubeconfig, state.server, pki);
  return { kubeconfig: state.kubeconfig, started: true };
}

/** Stops the cluster's processes and removes its data. */
export async function down(): Promise<void> {
  if (existsSync(stateFile)) {
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as State;
    for (const pid of [...state.pids].reverse()) {
      if (!alive(pid)) continue;
      process.kill(pid, "SIGTERM");
      for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  }
  rmSync(stateDir, { recursive: true, force: true });
}
