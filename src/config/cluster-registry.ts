// The server's cluster registry (the file UNDRIFT_CLUSTERS names): cluster
// names to credentials, and which repositories may use each. Credentials
// only ever come from here, never from a repository.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { UndriftError } from "../model/undrift-error.ts";
import { channelsSchema, type SecretSource } from "./channel-registry.ts";
import { ConfigError } from "./config-error.ts";
import { parseYamlConfig } from "./parse-yaml-config.ts";

const repositoryPattern = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/([A-Za-z0-9._-]+|\*)$/, {
  error: (issue) => `expected owner/name or owner/*, got "${String(issue.input)}"`,
});

// A credential the cluster's kube-apiserver presents to the audit receiver: read from an environment variable of the
// web process or from a file, never written inline, so a registry kept in Git holds no token.
const auditTokenSource = z.union(
  [
    z.strictObject({ env: z.string().min(1).describe("An environment variable of the web process holding it.") }),
    z.strictObject({
      file: z.string().min(1).describe("A file holding it; relative paths are from the registry file."),
    }),
  ],
  { error: "expected {env: NAME} or {file: path} (a token is never written inline)" },
);

const auditSchema = z
  .strictObject({
    token: auditTokenSource
      .optional()
      .describe(
        "The bearer token the cluster's kube-apiserver presents (its --audit-webhook-config-file's user token), at least 32 characters.",
      ),
    clientCertificate: z
      .strictObject({
        commonName: z
          .string()
          .min(1)
          .describe("The CN of the client certificate it presents, signed by UNDRIFT_RECORDER_CLIENT_CA_FILE."),
      })
      .optional()
      .describe("Or a client certificate, checked on the recorder's HTTPS port (UNDRIFT_RECORDER_PORT)."),
  })
  .refine((audit) => audit.token !== undefined || audit.clientCertificate !== undefined, {
    message: "needs token or clientCertificate",
  })
  .describe("The cluster's kube-apiserver posts its audit events to the web process (self-managed clusters).");

const clusterEntrySchema = z
  .strictObject({
    kubeconfig: z.string().min(1).optional().describe("Kubeconfig file; relative paths are from the registry file."),
    context: z.string().min(1).optional().describe("The kubeconfig's context to use; default its current context."),
    inCluster: z.boolean().optional().describe("Use the service account undrift runs as (in-cluster credentials)."),
    repositories: z
      .array(repositoryPattern)
      .describe("Repositories allowed to use the cluster: owner/name or owner/*."),
    audit: auditSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    const inCluster = entry.inCluster === true;
    if (entry.kubeconfig !== undefined && inCluster) {
      ctx.addIssue({ code: "custom", message: "set kubeconfig or inCluster: true, not both", input: entry });
    } else if (entry.kubeconfig === undefined && !inCluster) {
      ctx.addIssue({ code: "custom", message: "needs kubeconfig or inCluster: true", input: entry });
    } else if (entry.context !== undefined && inCluster) {
      ctx.addIssue({ code: "custom", path: ["context"], message: "context needs a kubeconfig", input: entry.context });
    }
  });

const clusterRegistrySchema = z.strictObject({
  clusters: z.record(z.string().min(1), clusterEntrySchema).describe("Clusters by the name targets use."),
  channels: channelsSchema.optional(),
});

/** The cluster registry as parsed. */
export type ClusterRegistry = z.output<typeof clusterRegistrySchema>;
/** How to reach one cluster, and who may. */
export type ClusterEntry = z.output<typeof clusterEntrySchema>;

/** A repository named a cluster it may not use; refused for good, not retried. */
export class ClusterAccessError extends UndriftError {
  override name = "ClusterAccessError";
  readonly permanent = true;
  readonly cluster: string;
  readonly repository: string;

  constructor(message: string, options: { cluster: string; repository: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.cluster = options.cluster;
    this.repository = options.repository;
  }
}

/** Parses registry YAML; `file` names it in errors. Kubeconfig paths are kept as written. */
export function loadClusterRegistryText(text: string, file: string): ClusterRegistry {
  return parseYamlConfig(clusterRegistrySchema, text, file);
}

/** Reads the registry file, resolving relative kubeconfig paths against the file's folder. */
export async function loadClusterRegistry(path: string): Promise<ClusterRegistry> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new ConfigError(`${path}: not found`, { file: path, cause: error });
  }
  const registry = loadClusterRegistryText(text, path);
  for (const entry of Object.values(registry.clusters)) {
    if (entry.kubeconfig !== undefined) entry.kubeconfig = resolve(dirname(path), entry.kubeconfig);
  }
  const fromFolder = (source: SecretSource): SecretSource =>
    typeof source === "object" && "file" in source ? { file: resolve(dirname(path), source.file) } : source;
  for (const entry of Object.values(registry.clusters))
    if (entry.audit?.token && "file" in entry.audit.token)
      entry.audit.token = { file: resolve(dirname(path), entry.audit.token.file) };
  for (const channel of Object.values(registry.channels ?? {})) {
    channel.url = fromFolder(channel.url);
    if (channel.kind === "webhook") channel.secret = fromFolder(channel.secret);
  }
  return registry;
}

/** The registry entry `repoFullName` may use for `clusterName`; throws ClusterAccessError otherwise. */
export function clusterFor(registry: ClusterRegistry, clusterName: string, repoFullName: string): ClusterEntry {
  const entry = Object.hasOwn(registry.clusters, clusterName) ? registry.clusters[clusterName] : undefined;
  const context = { cluster: clusterName, repository: repoFullName };
  if (!entry) throw new ClusterAccessError(`cluster "${clusterName}" is not in the cluster registry`, context);
  if (!entry.repositories.some((pattern) => repositoryMatches(pattern, repoFullName))) {
    throw new ClusterAccessError(`repository ${repoFullName} may not use cluster "${clusterName}"`, context);
  }
  return entry;
}

// GitHub owner and repository names are case-insensitive.
function repositoryMatches(pattern: string, repoFullName: string): boolean {
  const [owner, name] = pattern.toLowerCase().split("/");
  const [repoOwner, repoName] = repoFullName.toLowerCase().split("/");
  return owner === repoOwner && (name === "*" || name === repoName);
}
