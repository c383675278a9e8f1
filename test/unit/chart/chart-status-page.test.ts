// The status page as the chart turns it on: the GitHub App's OAuth client from
// a Secret of the user's into the web pods alone, under the names undrift's own
// settings reader takes (src/config/status-env.ts), the base URL the sign-in
// comes back to, and the Ingress routing /status beside the webhooks.
import { describe, expect, it } from "vitest";
import { parseStatusEnv } from "../../../src/config/status-env.ts";
import { type Obj, renderChart } from "./chart-tools.ts";

const find = (list: Obj[], kind: string, name: string) => list.find((o) => o.kind === kind && o.metadata.name === name);
const envOf = (list: Obj[], deployment: string): Obj[] =>
  find(list, "Deployment", deployment)!.spec.template.spec.containers[0].env;

/** The environment a pod would see, each Secret key standing for its value as `<secret>/<key>`. */
function podEnv(env: Obj[]): NodeJS.ProcessEnv {
  return Object.fromEntries(
    env.map((e) => [
      e.name,
      e.value ?? (e.valueFrom?.secretKeyRef ? `${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}` : ""),
    ]),
  );
}

const on = {
  clusters: { prod: { kubeconfigSecret: { name: "prod-kubeconfig" }, repositories: ["acme/*"] } },
  workers: [{ name: "eu", clusters: ["prod"] }],
  web: { baseUrl: "https://undrift.acme.example", ingress: { enabled: true, host: "undrift.acme.example" } },
  statusPage: {
    oauth: { existingSecret: "undrift-oauth", clientIdKey: "client-id", clientSecretKey: "client-secret" },
  },
};

describe("charts/undrift: the status page", () => {
  it("gives the web pods the App's OAuth client from the Secret and the base URL, as undrift reads them", () => {
    const list = renderChart(on);
    const env = envOf(list, "r-undrift-web");
    expect(env).toEqual(
      expect.arrayContaining([
        { name: "GITHUB_CLIENT_ID", valueFrom: { secretKeyRef: { name: "undrift-oauth", key: "client-id" } } },
        { name: "GITHUB_CLIENT_SECRET", valueFrom: { secretKeyRef: { name: "undrift-oauth", key: "client-secret" } } },
        { name: "UNDRIFT_BASE_URL", value: "https://undrift.acme.example" },
      ]),
    );
    // undrift's own reader finds the page on, and the sign-in coming back to the base URL over https.
    const settings = parseStatusEnv(podEnv(env));
    expect(settings.oauth).toEqual({
      clientId: "undrift-oauth/client-id",
      clientSecret: "undrift-oauth/client-secret",
    });
    expect(settings.baseUrl?.href).toBe("https://undrift.acme.example/");
    // The workers serve no page: the client secret stays out of their pods.
    expect(envOf(list, "r-undrift-worker-eu").map((e) => e.name)).not.toContain("GITHUB_CLIENT_SECRET");
    expect(find(list, "Ingress", "r-undrift-web")!.spec.rules[0].http.paths.map((p: Obj) => p.path)).toEqual([
      "/api/github/webhooks",
      "/status",
    ]);
  });

  it("is off by default: no OAuth client in any pod and no /status on the Ingress, so the page says how to turn it on", () => {
    const list = renderChart({ web: { ingress: { enabled: true } } });
    const env = envOf(list, "r-undrift-web");
    expect(env.map((e) => e.name)).not.toContain("GITHUB_CLIENT_ID");
    expect(env.map((e) => e.name)).not.toContain("UNDRIFT_BASE_URL");
    expect(parseStatusEnv(podEnv(env)).oauth).toBeUndefined();
    expect(find(list, "Ingress", "r-undrift-web")!.spec.rules[0].http.paths.map((p: Obj) => p.path)).toEqual([
      "/api/github/webhooks",
    ]);
  });

  it("routes /status once when the user's own Ingress paths already have it", () => {
    const list = renderChart({
      ...on,
      web: {
        ingress: {
          enabled: true,
          paths: [
            { path: "/api/github/webhooks", pathType: "Prefix" },
            { path: "/status", pathType: "Prefix" },
          ],
        },
      },
    });
    expect(find(list, "Ingress", "r-undrift-web")!.spec.rules[0].http.paths.map((p: Obj) => p.path)).toEqual([
      "/api/github/webhooks",
      "/status",
    ]);
  });

  it("refuses a base URL that is not an http(s) URL, naming the value", () => {
    expect(() => renderChart({ web: { baseUrl: "undrift.acme.example" } })).toThrow(/web\.baseUrl|baseUrl/);
  });
});
