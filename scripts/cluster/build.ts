// Builds the test cluster's binaries (etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kwok, metrics-server) and the renderers (kustomize, helm) for
// `npm run cluster:up` and the demo, and promtool for the test command alone (the
// chart's alert and dashboard tests: the demo needs none of it), from the Go module
// proxy, once, into a cache outside the git tree keyed by version (~/.cache/undrift/bin).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { versions } from "./versions.ts";

const toolsDir = resolve(import.meta.dirname, "../../tools");

/** Folder the built binaries live in; UNDRIFT_CACHE moves it. */
export function binDir(): string {
  return join(process.env.UNDRIFT_CACHE ?? join(homedir(), ".cache", "undrift"), "bin");
}

/** Absolute paths of the binaries, whether built yet or not. */
export function binaries() {
  const dir = binDir();
  return {
    kubeApiserver: join(dir, `kube-apiserver-${versions.kubernetes}`),
    kubeControllerManager: join(dir, `kube-controller-manager-${versions.kubernetes}`),
    kubeScheduler: join(dir, `kube-scheduler-${versions.kubernetes}`),
    etcd: join(dir, `etcd-${versions.etcd}`),
    kwok: join(dir, `kwok-${versions.kwok}`),
    metricsServer: join(dir, `metrics-server-${versions.metricsServer}`),
    kustomize: join(dir, `kustomize-${versions.kustomize}`),
    helm: join(dir, `helm-${versions.helm}`),
    promtool: join(dir, `promtool-${versions.prometheus}`),
  };
}

function go(args: string[], cwd: string, env: Record<string, string> = {}): void {
  const goBin = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
  const started = Date.now();
  const result = spawnSync(goBin, args, {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    throw new Error(`go ${args.join(" ")} (in ${cwd}) failed with exit code ${result.status ?? result.signal}`);
  }
  console.error(`  built in ${Math.round((Date.now() - started) / 1000)}s`);
}

/**
 * Builds package `pkg` of a wrapper module under tools/ into `out`, going through a
 * temp name so a killed build leaves nothing half-written.
 */
function buildWrapper(module: string, out: string, ldflags = "-s -w", pkg = "."): void {
  console.error(`building ${pkg === "." ? module : pkg.slice(2)} (first run only; several minutes on 2 cores)`);
  const partial = `${out}.partial`;
  go(["build", "-trimpath", "-ldflags", ldflags, "-o", partial, pkg], join(toolsDir, module));
  renameSync(partial, out);
}

/** Stamps the version the way upstream's release build does, so discovery, kubectl and skew checks see a real one. */
function kubernetesLdflags(): string {
  const [major, minor] = versions.kubernetes.slice(1).split(".");
  const pkg = "k8s.io/component-base/version";
  return `-s -w -X ${pkg}.gitVersion=${versions.kubernetes} -X ${pkg}.gitMajor=${major} -X ${pkg}.gitMinor=${minor}`;
}

/** `go install module@version` into a scratch GOBIN, then moves the binary into the cache. */
function install(module: string, version: string, binary: string, out: string): void {
  console.error(`building ${binary} ${version} (first run only)`);
  const gobin = mkdtempSync(join(tmpdir(), "undrift-gobin-"));
  try {
    go(["install", "-trimpath", "-ldflags", "-s -w", `${module}@${version}`], tmpdir(), { GOBIN: gobin, GOFLAGS: "" });
    renameSync(join(gobin, binary), out);
  } finally {
    rmSync(gobin, { recursive: true, force: true });
  }
}

/** Builds whatever binaries of the cluster and the renderers the cache lacks and returns their paths. */
export function ensureBinaries() {
  const bins = binaries();
  mkdirSync(binDir(), { recursive: true });
  if (!existsSync(bins.etcd)) buildWrapper("etcd", bins.etcd);
  if (!existsSync(bins.kubeApiserver)) buildWrapper("kube-apiserver", bins.kubeApiserver, kubernetesLdflags());
  // One module with a main per component, so the second build reuses the first one's compiled packages.
  if (!existsSync(bins.kubeControllerManager))
    buildWrapper("kube-controllers", bins.kubeControllerManager, kubernetesLdflags(), "./kube-controller-manager");
  if (!existsSync(bins.kubeScheduler))
    buildWrapper("kube-controllers", bins.kubeScheduler, kubernetesLdflags(), "./kube-scheduler");
  if (!existsSync(bins.kwok)) install("sigs.k8s.io/kwok/cmd/kwok", versions.kwok, "kwok", bins.kwok);
  if (!existsSync(bins.metricsServer))
    install(
      "sigs.k8s.io/metrics-server/cmd/metrics-server",
      versions.metricsServer,
      "metrics-server",
      bins.metricsServer,
    );
  if (!existsSync(bins.kustomize))
    install("sigs.k8s.io/kustomize/kustomize/v5", versions.kustomize, "kustomize", bins.kustomize);
  if (!existsSync(bins.helm)) install("helm.sh/helm/v4/cmd/helm", versions.helm, "helm", bins.helm);
  return bins;
}

/** Builds promtool when the cache lacks it: only the test command's chart tests run it (test/setup/test-tools.ts). */
export function ensurePromtool(): string {
  const { promtool } = binaries();
  mkdirSync(binDir(), { recursive: true });
  if (!existsSync(promtool))
    install("github.com/prometheus/prometheus/cmd/promtool", versions.prometheus, "promtool", promtool);
  return promtool;
}
