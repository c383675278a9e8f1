// The few API calls cluster:up makes itself, as the admin, before any client library
// is configured: GET, and server-side apply of the objects it installs.
import { readFileSync } from "node:fs";
import { request } from "node:https";

export interface Endpoint {
  server: string;
  caCert: string;
  adminToken: string;
}

/** One HTTPS call to the API server as the admin; resolves with status and body. */
export function call(endpoint: Endpoint, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${endpoint.server}${path}`,
      {
        method,
        ca: readFileSync(endpoint.caCert),
        headers: { authorization: `Bearer ${endpoint.adminToken}`, "content-type": "application/apply-patch+yaml" },
        timeout: 10_000,
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

/** GET that yields the parsed object, or undefined on any non-200 answer or error. */
export async function get<T = Record<string, unknown>>(endpoint: Endpoint, path: string): Promise<T | undefined> {
  try {
    const res = await call(endpoint, "GET", path);
    return res.status === 200 ? (JSON.parse(res.body) as T) : undefined;
  } catch {
    return undefined;
  }
}

export interface ClusterObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

// Plural and scope of every kind cluster:up installs; unknown kinds are refused rather than guessed.
const resources: Record<string, { plural: string; namespaced: boolean }> = {
  ClusterRole: { plural: "clusterroles", namespaced: false },
  ClusterRoleBinding: { plural: "clusterrolebindings", namespaced: false },
  RoleBinding: { plural: "rolebindings", namespaced: true },
  Namespace: { plural: "namespaces", namespaced: false },
  Node: { plural: "nodes", namespaced: false },
  Service: { plural: "services", namespaced: true },
  APIService: { plural: "apiservices", namespaced: false },
  CustomResourceDefinition: { plural: "customresourcedefinitions", namespaced: false },
  MutatingWebhookConfiguration: { plural: "mutatingwebhookconfigurations", namespaced: false },
};

/** The REST path of one object. */
export function objectPath(object: ClusterObject): string {
  const resource = resources[object.kind];
  if (!resource) throw new Error(`cluster:up does not know the resource of kind ${object.kind}`);
  const base = object.apiVersion.includes("/") ? `/apis/${object.apiVersion}` : `/api/${object.apiVersion}`;
  const namespace = resource.namespaced ? `/namespaces/${object.metadata.namespace ?? "default"}` : "";
  return `${base}${namespace}/${resource.plural}/${object.metadata.name}`;
}

/** Server-side apply under the field manager `undrift-cluster`, taking over any conflict. */
export async function apply(endpoint: Endpoint, object: ClusterObject): Promise<void> {
  const res = await call(endpoint, "PATCH", `${objectPath(object)}?fieldManager=undrift-cluster&force=true`, object);
  if (res.status >= 300) {
    throw new Error(`applying ${object.kind}/${object.metadata.name}: ${res.status} ${res.body.slice(0, 300)}`);
  }
}
