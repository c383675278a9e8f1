// undrift attribution install|uninstall --cluster NAME: puts (or takes away) the
// admission recorder's ValidatingWebhookConfiguration in the cluster the
// kubeconfig reaches, for clusters whose API server's audit backend is not the
// user's to configure (EKS, GKE, AKS). See app/attribution/recorder-webhook.ts
// for why it cannot block or slow a write.
import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import { recorderToken } from "../app/attribution/recorder-token.ts";
import { RECORDER_WEBHOOK_API, recorderWebhook, recorderWebhookName } from "../app/attribution/recorder-webhook.ts";
import { RECORDER_SECRET_MIN, recorderSecret } from "../config/recorder-env.ts";
import { applyObject } from "../live/apply-object.ts";
import { deleteObject } from "../live/delete-object.ts";
import type { ApiResource } from "../live/discovery.ts";
import { KubeClient } from "../live/kube-client.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
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
  const name = recorderWebhookName(cluster);
  const kubeConfig = () => loadKubeconfig({ kubeconfig: args.kubeconfig, context: args.context });

  if (action === "uninstall") {
    const object = { metadata: { name } };
    if (args["dry-run"]) {
      process.stdout.write(`would delete validatingwebhookconfiguration ${name}\n`);
      return 0;
    }
    const client = new KubeClient(kubeConfig());
    const result = await deleteObject({
      client,
      resource: webhookConfigurations,
      object,
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
  if (!args["ca-file"])
    throw new UsageError("--ca-file is required: the CA (PEM) of the recorder's serving certificate");
  let caPem: string;
  try {
    caPem = readFileSync(args["ca-file"], "utf8");
  } catch (error) {
    throw new UsageError(
      `--ca-file ${args["ca-file"]}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
  if (!caPem.includes("-----BEGIN CERTIFICATE-----"))
    throw new UsageError(`--ca-file ${args["ca-file"]}: not a PEM certificate`);
  const secret = recorderSecret(process.env);
  if (!secret)
    throw new UsageError(
      `UNDRIFT_RECORDER_SECRET: required to install, the web process's (at least ${RECORDER_SECRET_MIN} characters): the cluster's URL token is derived from it`,
    );
  const timeoutSeconds = Number(args.timeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 5)
    throw new UsageError(`--timeout: expected a whole number of seconds from 1 to 5, got "${args.timeout}"`);
  let object: ReturnType<typeof recorderWebhook>;
  try {
    object = recorderWebhook({
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
  if (args["dry-run"]) {
    process.stdout.write(stringify(object));
    return 0;
  }
  const client = new KubeClient(kubeConfig());
  await applyObject({
    client,
    resource: webhookConfigurations,
    object,
    fieldManager: FIELD_MANAGER,
    force: true,
    dryRun: false,
  });
  process.stdout.write(
    `validatingwebhookconfiguration ${name} applied: writes to objects matching ${args.selector} are recorded for cluster ${cluster}\n`,
  );
  return 0;
}
