// The test cluster's mutating admission webhook, run detached by cluster:up:
//   node scripts/cluster/webhook-server.ts --port N --cert FILE --key FILE
// It does what policy engines and sidecar injectors do in real clusters, so drift
// tests meet fields that no one in Git wrote:
// - a Deployment in a namespace labelled undrift-test/inject=enabled gets a label,
//   an annotation and a sidecar container in its pod template (Kyverno, Istio);
// - a Widget (widgets.test.undrift.dev) created without spec.size gets size: medium.
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { parseArgs } from "node:util";

/** What the webhook adds to an opted-in Deployment. */
export const injected = {
  label: ["undrift-test/injected", "true"],
  annotation: ["undrift-test/injected-by", "undrift-webhook"],
  sidecar: { name: "undrift-proxy", image: "registry.example/undrift-proxy:1.0.0" },
  widgetSize: "medium",
} as const;

type Patch = { op: "add"; path: string; value: unknown };
interface Admitted {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { size?: string; template?: { spec?: { containers?: Array<{ name: string }> } } };
}
interface AdmissionReview {
  request?: { uid?: string; object?: Admitted };
}

const pointer = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

function addEntry(
  patch: Patch[],
  object: Admitted,
  map: "labels" | "annotations",
  [key, value]: readonly [string, string],
) {
  const existing = object.metadata?.[map];
  if (existing?.[key] === value) return;
  if (!existing) patch.push({ op: "add", path: `/metadata/${map}`, value: { [key]: value } });
  else patch.push({ op: "add", path: `/metadata/${map}/${pointer(key)}`, value });
}

/** JSON patch for a Deployment: idempotent, so a reinvocation or an update adds nothing twice. */
export function mutateDeployment(deployment: Admitted): Patch[] {
  const patch: Patch[] = [];
  addEntry(patch, deployment, "labels", injected.label);
  addEntry(patch, deployment, "annotations", injected.annotation);
  const containers = deployment.spec?.template?.spec?.containers ?? [];
  if (!containers.some((c) => c.name === injected.sidecar.name)) {
    patch.push({ op: "add", path: "/spec/template/spec/containers/-", value: { ...injected.sidecar } });
  }
  return patch;
}

/** JSON patch for a Widget on create: defaults spec.size. */
export function defaultWidget(widget: Admitted): Patch[] {
  if (widget.spec?.size !== undefined) return [];
  if (!widget.spec) return [{ op: "add", path: "/spec", value: { size: injected.widgetSize } }];
  return [{ op: "add", path: "/spec/size", value: injected.widgetSize }];
}

const handlers: Record<string, (object: Admitted) => Patch[]> = {
  "/mutate-deployment": mutateDeployment,
  "/default-widget": defaultWidget,
};

/** The AdmissionReview response for one request. */
export function review(path: string, body: AdmissionReview) {
  const request = body.request ?? {};
  const patch = handlers[path]?.(request.object ?? {}) ?? [];
  const response: { uid?: string; allowed: boolean; patchType?: string; patch?: string } = {
    uid: request.uid,
    allowed: true,
  };
  if (patch.length) {
    response.patchType = "JSONPatch";
    response.patch = Buffer.from(JSON.stringify(patch)).toString("base64");
  }
  return { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response };
}

function main(): void {
  const { values } = parseArgs({
    options: { port: { type: "string" }, cert: { type: "string" }, key: { type: "string" } },
  });
  if (!values.port || !values.cert || !values.key) {
    console.error("usage: node scripts/cluster/webhook-server.ts --port N --cert FILE --key FILE");
    process.exit(2);
  }
  const server = createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) }, (req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.end("ok");
      return;
    }
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (req.method !== "POST" || !handlers[path]) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      try {
        const answer = review(path, JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      } catch (error) {
        console.error(`webhook ${path}: ${error instanceof Error ? error.message : String(error)}`);
        res.writeHead(400).end();
      }
    });
  });
  server.listen(Number(values.port), "127.0.0.1", () => console.error(`webhook listening on 127.0.0.1:${values.port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

if (import.meta.main) main();
