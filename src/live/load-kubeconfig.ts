// Builds a KubeConfig from --kubeconfig/--context (or the usual KUBECONFIG and
// ~/.kube/config) for the CLI; the app passes the cluster registry's entry.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { KubeconfigError } from "./errors.ts";

// Where each loaded config came from, so a TLS or credentials error can say which file to fix.
const sources = new WeakMap<KubeConfig, string>();

/** The file a KubeConfig was loaded from (`in-cluster config` for a pod's), else "the kubeconfig". */
export function kubeconfigSource(kc: KubeConfig): string {
  return sources.get(kc) ?? "the kubeconfig";
}

export function loadKubeconfig(params: { kubeconfig?: string; context?: string; inCluster?: boolean }): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (params.inCluster) kc.loadFromCluster();
    else if (params.kubeconfig) {
      if (!existsSync(params.kubeconfig)) throw new KubeconfigError(`kubeconfig ${params.kubeconfig}: no such file`);
      kc.loadFromFile(params.kubeconfig);
    } else kc.loadFromDefault();
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
  if (!kc.getCurrentCluster())
    throw new KubeconfigError(`${params.kubeconfig ?? "the kubeconfig"}: no current cluster`);
  sources.set(kc, params.inCluster ? "in-cluster config" : (params.kubeconfig ?? defaultFile()));
  return kc;
}

/** The file loadFromDefault read first: $KUBECONFIG's first, else ~/.kube/config. */
function defaultFile(): string {
  const first = (process.env.KUBECONFIG ?? "").split(delimiter).find(Boolean);
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
