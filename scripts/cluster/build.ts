// Builds kube-apiserver, etcd, kustomize and helm from the Go module proxy, once,
// into a cache outside the git tree keyed by version (~/.cache/undrift/bin).
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

/** Absolute paths of the four binaries, whether built yet or not. */
export function binaries() {
  const dir = binDir();
  return {
    kubeApiserver: join(dir, `kube-apiserver-${versions.kubernetes}`),
    etcd: join(dir, `etcd-${versions.etcd}`),
    kustomize: join(dir, `kustomize-${versions.kustomize}`),
    helm: join(dir, `helm-${versions.helm}`),
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

/** Builds a wrapper module under tools/ into `out`, going through a temp name so a killed build leaves nothing half-written. */
function buildWrapper(name: string, out: string, ldflags = "-s -w"): void {
  console.error(`building ${name} (first run only; several minutes on 2 cores)`);
  const partial = `${out}.partial`;
  go(["build", "-trimpath", "-ldflags", ldflags, "-o", partial, "."], join(toolsDir, name));
  renameSync(partial, out);
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

/** Builds whatever of the four binaries the cache lacks and returns their paths. */
export function ensureBinaries() {
  const bins = binaries();
  mkdirSync(binDir(), { recursive: true });
  if (!existsSync(bins.etcd)) buildWrapper("etcd", bins.etcd);
  if (!existsSync(bins.kubeApiserver)) {
    const [major, minor] = versions.kubernetes.slice(1).split(".");
    const pkg = "k8s.io/component-base/version";
    // Stamp the version the way upstream's release build does, so discovery and kubectl see a real one.
    const ldflags = `-s -w -X ${pkg}.gitVersion=${versions.kubernetes} -X ${pkg}.gitMajor=${major} -X ${pkg}.gitMinor=${minor}`;
    buildWrapper("kube-apiserver", bins.kubeApiserver, ldflags);
  }
  if (!existsSync(bins.kustomize))
    install("sigs.k8s.io/kustomize/kustomize/v5", versions.kustomize, "kustomize", bins.kustomize);
  if (!existsSync(bins.helm)) install("helm.sh/helm/v4/cmd/helm", versions.helm, "helm", bins.helm);
  return bins;
}
