// Starts and stops the loopback test cluster: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok (the nodes), metrics-server and the
// test webhook, as detached processes whose state lives in one folder, so any later
// process (a second cluster:up, the test suite, cluster:down) can find and reuse them.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { apply, type ClusterObject, call, type Endpoint } from "./api.ts";
import { type AuditWebhook, auditFiles } from "./audit.ts";
import { ensureBinaries } from "./build.ts";
import { controllerManagerArgs, schedulerArgs } from "./controllers.ts";
import { writeComponentKubeconfig, writeKubeconfig } from "./kubeconfig.ts";
import { kwokArgs, kwokConfig, kwokNodes } from "./kwok.ts";
import { metricsObjects, metricsServerArgs } from "./metrics.ts";
import { frontProxyUser, makePki } from "./pki.ts";
import { platformCrds } from "./platform-crds.ts";
import { alive, type Component, freePort, start, stop } from "./processes.ts";
import { readerRbac } from "./rbac.ts";
import { waitForApiserver, waitForComponents } from "./readiness.ts";
import { reconcilerCrds } from "./reconciler-crds.ts";
import { withStartLock } from "./start-lock.ts";
import { webhookConfiguration, widgetCrd } from "./webhook.ts";

/** Where a running cluster keeps its data, logs and kubeconfig; UNDRIFT_CLUSTER_DIR moves it. */
export const stateDir = process.env.UNDRIFT_CLUSTER_DIR ?? join(tmpdir(), "undrift-cluster");
const stateFile = join(stateDir, "state.json");

export interface State extends Endpoint {
  kubeconfig: string;
  pids: number[];
  components: Array<{ name: string; pid: number; log: string }>;
  /** Token of the cluster:up call that started this cluster; only a down that shows it stops it. */
  owner: string;
  /** Where kube-apiserver posts its audit events (audit.ts); absent in a cluster started before it did. */
  auditWebhook?: AuditWebhook;
}

function readState(): State | undefined {
  return existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as State) : undefined;
}

/** The running cluster's state, or undefined when none answers. */
export async function running(): Promise<State | undefined> {
  const state = readState();
  if (!state?.pids.every(alive)) return undefined;
  try {
    return (await call(state, "GET", "/readyz")).status === 200 ? state : undefined;
  } catch {
    return undefined;
  }
}

export interface Up {
  kubeconfig: string;
  /** Whether this call started the cluster (false: it reused a running one). */
  started: boolean;
  /** The owner token when this call started it; pass it to down() to stop only that cluster. */
  owner?: string;
  /** Where its kube-apiserver posts audit events, for a test's web process to listen at. */
  auditWebhook?: AuditWebhook;
}

/** Starts a cluster unless one runs; returns the kubeconfig path and whether this call started it. */
export async function up(): Promise<Up> {
  const reused = await reuse();
  if (reused) return reused;
  // A process that waited for another's start reuses what it started (a cold one builds for many minutes).
  return withStartLock(`${stateDir}.lock`, async () => {
    const startedMeanwhile = await reuse();
    if (startedMeanwhile) return startedMeanwhile;
    await down();
    const bins = ensureBinaries();
    try {
      return await startCluster(bins);
    } catch (error) {
      // Stop what did start, but keep the state folder: the error names the log to read.
      for (const component of readState()?.components.reverse() ?? []) await stop(component.pid);
      throw error;
    }
  });
}

async function reuse(): Promise<Up | undefined> {
  const existing = await running();
  if (!existing) return undefined;
  return {
    kubeconfig: existing.kubeconfig,
    started: false,
    ...(existing.auditWebhook ? { auditWebhook: existing.auditWebhook } : {}),
  };
}

async function startCluster(bins: ReturnType<typeof ensureBinaries>): Promise<Up> {
  const pkiDir = join(stateDir, "pki");
  mkdirSync(pkiDir, { recursive: true });
  const pki = makePki(pkiDir);
  const [etcdClient, etcdPeer, apiPort, auditPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const audit = auditFiles(pkiDir, auditPort, {
    certFile: pki.componentCert,
    keyFile: pki.componentKey,
    caCert: pki.caCert,
  });
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const peerUrl = `http://127.0.0.1:${etcdPeer}`;
  const log = (name: string) => join(stateDir, `${name}.log`);
  const components: Component[] = [];
  const state: State = {
    server: `https://127.0.0.1:${apiPort}`,
    kubeconfig: join(stateDir, "kubeconfig"),
    pids: [],
    components: [],
    caCert: pki.caCert,
    adminToken: pki.adminToken,
    owner: randomBytes(16).toString("hex"),
    auditWebhook: audit.webhook,
  };
  // Recorded after every start, so a failed up leaves a state that down can clean.
  const launch = (name: string, binary: string, args: string[]) => {
    const component = start(name, binary, args, log(name));
    components.push(component);
    state.pids.push(component.child.pid ?? -1);
    state.components.push({ name, pid: component.child.pid ?? -1, log: component.log });
    writeFileSync(stateFile, JSON.stringify(state, null, 2));
    return component;
  };
  launch("etcd", bins.etcd, [
    `--data-dir=${join(stateDir, "etcd")}`,
    `--listen-client-urls=${etcdUrl}`,
    `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=default=${peerUrl}`,
    "--unsafe-no-fsync=true",
    "--quota-backend-bytes=4294967296",
    "--log-level=warn",
  ]);
  launch("kube-apiserver", bins.kubeApiserver, [
    `--etcd-servers=${etcdUrl}`,
    `--cert-dir=${pkiDir}`,
    `--tls-cert-file=${pki.serverCert}`,
    `--tls-private-key-file=${pki.serverKey}`,
    `--secure-port=${apiPort}`,
    "--bind-address=127.0.0.1",
    "--advertise-address=127.0.0.1",
    "--service-cluster-ip-range=10.0.0.0/16",
    "--allow-privileged=true",
    "--authorization-mode=Node,RBAC",
    // Beside the default plugins: a namespace's annotations put its pods on the node of its own (kwok.ts ownNode).
    "--enable-admission-plugins=PodNodeSelector,PodTolerationRestriction",
    `--token-auth-file=${pki.tokenFile}`,
    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
    `--service-account-key-file=${pki.saPub}`,
    `--service-account-signing-key-file=${pki.saKey}`,
    // The aggregator's identity towards metrics-server (requestheader authentication); the client CA is
    // published with it in kube-system/extension-apiserver-authentication, which delegating servers read.
    `--client-ca-file=${pki.caCert}`,
    `--requestheader-client-ca-file=${pki.caCert}`,
    `--requestheader-allowed-names=${frontProxyUser}`,
    "--requestheader-username-headers=X-Remote-User",
    "--requestheader-group-headers=X-Remote-Group",
    "--requestheader-extra-headers-prefix=X-Remote-Extra-",
    `--proxy-client-cert-file=${pki.proxyClientCert}`,
    `--proxy-client-key-file=${pki.proxyClientKey}`,
    // The benchmark's reference (kubectl diff) sends thousands of requests; do not let the default limits shape it.
    "--max-requests-inflight=2000",
    "--max-mutating-requests-inflight=1000",
    "--enable-priority-and-fairness=false",
    // A watch resumed from a resourceVersion the server no longer has is answered 410 Gone; the 410 tests need
    // that within seconds. The watch cache keeps every event of the last 75 s at least (no flag lowers it), so
    // the two kinds those tests write, and nothing else does, are served from etcd instead, and etcd's history
    // is compacted every 5 s: a watch of them from a resourceVersion 5 to 15 s old gets 410. Other kinds stay in
    // the watch cache, whose window compaction does not shorten; only a LIST paged over more than 5 s may now hear
    // its continue token expired (410), which listObjects and kubectl answer by listing again.
    "--watch-cache-sizes=podtemplates#0,limitranges#0",
    "--etcd-compaction-interval=5s",
    ...audit.args,
  ]);
  await waitForApiserver(state, components, 120);
  for (const object of readerRbac) await apply(state, object);
  writeKubeconfig(state.kubeconfig, state.server, pki);

  const componentConfig = (name: string, token: string) => {
    const path = join(pkiDir, `${name}.kubeconfig`);
    writeComponentKubeconfig(path, state.server, pki.caCert, token);
    return path;
  };
  const [kcmPort, schedulerPort, kwokPort, metricsPort, webhookPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const kwokConfigFile = join(stateDir, "kwok.yaml");
  writeFileSync(kwokConfigFile, kwokConfig());
  const caBundle = readFileSync(pki.caCert).toString("base64");
  const serving = { cert: pki.componentCert, key: pki.componentKey };
  const installed: ClusterObject[] = [
    ...kwokNodes(),
    ...metricsObjects(metricsPort, caBundle),
    widgetCrd,
    webhookConfiguration(webhookPort, caBundle),
    ...platformCrds(),
    ...reconcilerCrds(),
  ];
  for (const object of installed) await apply(state, object);

  launch(
    "kube-controller-manager",
    bins.kubeControllerManager,
    controllerManagerArgs({
      kubeconfig: componentConfig("kube-controller-manager", pki.tokens.controllerManager),
      port: kcmPort,
      pki,
    }),
  );
  launch(
    "kube-scheduler",
    bins.kubeScheduler,
    schedulerArgs({ kubeconfig: componentConfig("kube-scheduler", pki.tokens.scheduler), port: schedulerPort }),
  );
  launch(
    "kwok",
    bins.kwok,
    kwokArgs({
      kubeconfig: componentConfig("kwok", pki.tokens.kwok),
      config: kwokConfigFile,
      port: kwokPort,
      ...serving,
    }),
  );
  launch(
    "metrics-server",
    bins.metricsServer,
    metricsServerArgs({
      kubeconfig: componentConfig("metrics-server", pki.tokens.metricsServer),
      port: metricsPort,
      ...serving,
    }),
  );
  launch("webhook", process.execPath, [
    resolve(import.meta.dirname, "webhook-server.ts"),
    `--port=${webhookPort}`,
    `--cert=${serving.cert}`,
    `--key=${serving.key}`,
  ]);
  await waitForComponents(state, components, {
    controllerManager: kcmPort,
    scheduler: schedulerPort,
    webhook: webhookPort,
    crds: installed.filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata.name),
  });
  return { kubeconfig: state.kubeconfig, started: true, owner: state.owner, auditWebhook: audit.webhook };
}

/**
 * Stops the cluster's processes and removes its data. With `owner`, only when the
 * cluster is the one the up() that returned that token started; returns whether it stopped one.
 */
export async function down(options: { owner?: string } = {}): Promise<boolean> {
  const state = readState();
  if (options.owner !== undefined && state?.owner !== options.owner) return false;
  if (state) {
    for (const pid of [...state.pids].reverse()) await stop(pid);
  }
  rmSync(stateDir, { recursive: true, force: true });
  return state !== undefined;
}
