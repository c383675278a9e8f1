// Builds a KubeConfig from --kubeconfig/--context (or the usual KUBECONFIG and
// ~/.kube/config) for the CLI; the app passes the cluster registry's entry.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import { KubeconfigError } from "./errors.ts";
import { kubeConfigClass } from "./kube-config-class.ts";

// Where each loaded config came from, so a TLS or credentials error can say which file to fix.
const sources = new WeakMap<KubeConfig, string>();

/** The file a KubeConfig was loaded from (`in-cluster config` for a pod's), else "the kubeconfig". */
export function kubeconfigSource(kc: KubeConfig): string {
  return sources.get(kc) ?? "the kubeconfig";
}

/** kubectl's words when there is nothing to read: what to set, pass or create. */
export const noKubeconfigMessage = "no kubeconfig: set KUBECONFIG, pass --kubeconfig FILE, or create ~/.kube/config";

export function loadKubeconfig(params: { kubeconfig?: string; context?: string; inCluster?: boolean }): KubeConfig {
  const kc = new (kubeConfigClass())();
  let inCluster = params.inCluster === true;
  try {
    if (inCluster) kc.loadFromCluster();
    else if (params.kubeconfig) {
      if (!existsSync(params.kubeconfig)) throw new KubeconfigError(`kubeconfig ${params.kubeconfig}: no such file`);
      loadFile(kc, params.kubeconfig);
    } else inCluster = loadDefault(kc);
  } catch (error) {
    if (error instanceof KubeconfigError) throw error;
    const where = params.kubeconfig ?? "the default kubeconfig";
    throw new KubeconfigError(`${where}${describeLoadError(error)}`, { cause: error });
  }
  if (params.context) {
    if (!kc.getContexts().some((c) => c.name === params.context)) {
      throw new KubeconfigError(`context "${params.context}" is not in ${params.kubeconfig ?? "the kubeconfig"}`);
    }
    kc.setCurrentContext(params.context);
  }
  const source = inCluster ? "in-cluster config" : (params.kubeconfig ?? defaultFile());
  // The file named, as everywhere else: with KUBECONFIG listing several, "the kubeconfig" says too little.
  if (!kc.getCurrentCluster()) throw new KubeconfigError(`${source}: no current cluster`);
  sources.set(kc, source);
  return kc;
}

/**
 * kubectl's order: $KUBECONFIG, else ~/.kube/config, else the pod's service account
 * (when KUBERNETES_SERVICE_HOST says undrift runs in a pod). client-node's loadFromDefault
 * would fall back to http://localhost:8080, which fails later as "HTTP protocol is not
 * allowed": say instead what is missing. True when the config is the pod's.
 */
function loadDefault(kc: KubeConfig): boolean {
  const files = (process.env.KUBECONFIG ?? "").split(delimiter).filter(Boolean);
  if (files.length > 0) {
    // kubectl skips the files of the list that do not exist and merges the rest; when none
    // exists it is one line naming them, not ENOENT from a read or client-node's localhost:8080.
    const present = files.filter((file) => existsSync(file));
    if (present.length === 0) {
      const named = files.length === 1 ? `kubeconfig ${files[0]}` : `no kubeconfig of ${files.join(delimiter)}`;
      throw new KubeconfigError(`${named} (from KUBECONFIG): no such file`);
    }
    loadFile(kc, present[0]!);
    for (const file of present.slice(1)) {
      const next = new (kubeConfigClass())();
      loadFile(next, file);
      kc.mergeConfig(next);
    }
    return false;
  }
  const home = join(homedir(), ".kube", "config");
  if (existsSync(home)) {
    loadFile(kc, home);
    return false;
  }
  if (!process.env.KUBERNETES_SERVICE_HOST) throw new KubeconfigError(noKubeconfigMessage);
  kc.loadFromCluster();
  return true;
}

/** Reads one kubeconfig file; an error names that file (with KUBECONFIG listing several, the one at fault). */
function loadFile(kc: KubeConfig, file: string): void {
  try {
    kc.loadFromFile(file);
  } catch (error) {
    throw new KubeconfigError(`${file}${describeLoadError(error)}`, { cause: error });
  }
}

/** The file loadDefault read first: $KUBECONFIG's first that exists, else ~/.kube/config. */
function defaultFile(): string {
  const first = (process.env.KUBECONFIG ?? "").split(delimiter).find((file) => file && existsSync(file));
  return first ?? join(homedir(), ".kube", "config");
}

/**
 * `:12: not valid YAML: ...` without the snippet js-yaml quotes: the lines around
 * a mistake in a kubeconfig are often its token or key. Other messages name fields.
 */
function describeLoadError(error: unknown): string {
  const yaml = error as { name?: unknown; reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (yaml?.name === "YAMLException" && typeof yaml.mark?.line === "number") {
    const column = typeof yaml.mark.column === "number" ? `, column ${yaml.mark.column + 1}` : "";
    return `:${yaml.mark.line + 1}: not valid YAML: ${String(yaml.reason)}${column}`;
  }
  if (yaml?.name === "YAMLException") return ": not valid YAML";
  const message = error instanceof Error ? error.message : String(error);
  return `: ${message.split("\n")[0]}`;
}
