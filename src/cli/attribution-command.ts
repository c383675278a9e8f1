// undrift attribution install|uninstall --cluster NAME: puts (or takes away) the
// admission recorder's ValidatingWebhookConfiguration in the cluster the
// kubeconfig reaches, for clusters whose API server's audit backend is not the
// user's to configure (EKS, GKE, AKS). See server/attribution/recorder-webhook.ts
// for why it cannot block or slow a write.
import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import { RECORDER_SECRET_MIN, recorderSecret } from "../config/recorder-env.ts";
import { applyObject } from "../live/apply-object.ts";
import { deleteObject } from "../live/delete-object.ts";
import type { ApiResource } from "../live/discovery.ts";
import { KubeClient } from "../live/kube-client.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { recorderToken } from "../server/attribution/recorder-token.ts";
import { RECORDER_WEBHOOK_API, recorderWebhook, recorderWebhookName } from "../server/attribution/recorder-webhook.ts";
import { attribution, attributionActions } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { parseCommandArgs } from "./parse-command-args.ts";

const webhookConfigurations: ApiResource = {
  ...RECORDER_WEBHOOK_API,
  kind: "ValidatingWebhookConfiguration",
  resource: "validatingwebhookconfigurations",
  namespaced: false,
  verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
  preferred: true,
};

const FIELD_MANAGER = "undrift-attribution";

type AttributionArgs = ReturnType<typeof parseCommandArgs<typeof attribution.flags>>;

export async function attributionCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!action || !(attributionActions as readonly string[]).includes(action)) {
    const got = action === undefined ? "nothing" : `"${action}"`;
    throw new UsageError(`attribution: expected one of ${attributionActions.join(", ")}, got ${got}`);
  }
  const args = parseCommandArgs(rest, attribution.flags);
  const cluster = args.cluster;
  if (!cluster) throw new UsageError("--cluster is required: the cluster's name in the registry");
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(cluster))
    throw new UsageError(`--cluster: "${cluster}" is not a cluster name (letters, digits, '.', '_', '-')`);
  return action === "uninstall" ? uninstall(args, cluster) : install(args, cluster);
}

const kubeConfigOf = (args: AttributionArgs) => loadKubeconfig({ kubeconfig: args.kubeconfig, context: args.context });

/** `undrift attribution uninstall`: the cluster's recorder webhook deleted, or said not to be there. */
async function uninstall(args: AttributionArgs, cluster: string): Promise<number> {
  const name = recorderWebhookName(cluster);
  if (args["dry-run"]) {
    process.stdout.write(`would delete validatingwebhookconfiguration ${name}\n`);
    return 0;
  }
  const client = new KubeClient(kubeConfigOf(args));
  const result = await deleteObject({
    client,
    resource: webhookConfigurations,
    object: { metadata: { name } },
    propagationPolicy: "Background",
    dryRun: false,
  });
  process.stdout.write(
    result.outcome === "gone"
      ? `validatingwebhookconfiguration ${name}: not installed\n`
      : `validatingwebhookconfiguration ${name} deleted\n`,
  );
  return 0;
}

/** `undrift attribution install`: the cluster's recorder webhook, from the flags, applied (or printed with --dry-run). */
async function install(args: AttributionArgs, cluster: string): Promise<number> {
  const object = recorderWebhookOf(args, cluster);
  if (args["dry-run"]) {
    process.stdout.write(stringify(object));
    return 0;
  }
  const client = new KubeClient(kubeConfigOf(args));
  await applyObject({
    client,
    resource: webhookConfigurations,
    object,
    fieldManager: FIELD_MANAGER,
    force: true,
    dryRun: false,
  });
  process.stdout.write(
    `validatingwebhookconfiguration ${recorderWebhookName(cluster)} applied: writes to objects matching ${args.selector} are recorded for cluster ${cluster}\n`,
  );
  return 0;
}

/** The webhook configuration install applies, each flag checked in turn with a usage error naming it. */
function recorderWebhookOf(args: AttributionArgs, cluster: string): ReturnType<typeof recorderWebhook> {
  const baseUrl = args.url ?? process.env.UNDRIFT_RECORDER_URL;
  if (!baseUrl)
    throw new UsageError("--url is required: where the API server reaches undrift's recorder (https://host:port)");
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new UsageError(`--url: "${baseUrl}" is not a URL`);
  }
  if (parsed.protocol !== "https:")
    throw new UsageError(`--url: the API server calls webhooks over https only, got ${baseUrl}`);
  const caPem = readCaFile(args["ca-file"]);
  const secret = recorderSecret(process.env);
  if (!secret)
    throw new UsageError(
      `UNDRIFT_RECORDER_SECRET: required to install, the web process's (at least ${RECORDER_SECRET_MIN} characters): the cluster's URL token is derived from it`,
    );
  const timeoutSeconds = Number(args.timeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 5)
    throw new UsageError(`--timeout: expected a whole number of seconds from 1 to 5, got "${args.timeout}"`);
  try {
    return recorderWebhook({
      cluster,
      baseUrl,
      token: recorderToken(secret, cluster),
      caPem,
      selector: args.selector,
      timeoutSeconds,
    });
  } catch (error) {
    throw new UsageError(`--selector: ${(error as Error).message}`, { cause: error });
  }
}

/** --ca-file's PEM: required, readable, and a certificate. */
function readCaFile(file: string | undefined): string {
  if (!file) throw new UsageError("--ca-file is required: the CA (PEM) of the recorder's serving certificate");
  let caPem: string;
  try {
    caPem = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--ca-file ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  if (!caPem.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`--ca-file ${file}: not a PEM certificate`);
  return caPem;
}
