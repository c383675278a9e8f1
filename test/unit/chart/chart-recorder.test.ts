// The admission recorder as the chart turns it on: its port on the web pods, the
// Service and the NetworkPolicy, its certificate mounted where UNDRIFT_RECORDER_*
// say, its secret from the user's Secret, and nothing of it in the workers.
import { describe, expect, it } from "vitest";
import { type Obj, renderChart } from "./chart-tools.ts";

const find = (list: Obj[], kind: string, name: string) => list.find((o) => o.kind === kind && o.metadata.name === name);

const on = {
  clusters: { prod: { kubeconfigSecret: { name: "prod-kubeconfig" }, repositories: ["acme/*"] } },
  workers: [{ name: "eu", clusters: ["prod"] }],
  networkPolicy: { enabled: true },
  attribution: { recorder: { port: 8443, tlsSecret: "recorder-tls", existingSecret: "recorder-secret" } },
};

describe("charts/undrift: the admission recorder", () => {
  it("serves it from the web pods on its own port, with the certificate and secret undrift reads", () => {
    const list = renderChart(on);
    const pod = find(list, "Deployment", "r-undrift-web")!.spec.template.spec;
    const container = pod.containers[0];
    expect(container.ports).toContainEqual({ name: "recorder", containerPort: 8443, protocol: "TCP" });
    expect(container.env).toEqual(
      expect.arrayContaining([
        { name: "UNDRIFT_RECORDER_PORT", value: "8443" },
        { name: "UNDRIFT_RECORDER_CERT_FILE", value: "/etc/undrift/recorder/tls.crt" },
        { name: "UNDRIFT_RECORDER_KEY_FILE", value: "/etc/undrift/recorder/tls.key" },
        {
          name: "UNDRIFT_RECORDER_SECRET",
          valueFrom: { secretKeyRef: { name: "recorder-secret", key: "UNDRIFT_RECORDER_SECRET" } },
        },
      ]),
    );
    expect(container.volumeMounts).toContainEqual({
      name: "recorder-tls",
      mountPath: "/etc/undrift/recorder",
      readOnly: true,
    });
    expect(pod.volumes).toContainEqual({ name: "recorder-tls", secret: { secretName: "recorder-tls" } });
    expect(find(list, "Service", "r-undrift-web")!.spec.ports).toContainEqual({
      name: "recorder",
      port: 8443,
      targetPort: "recorder",
      protocol: "TCP",
    });
    expect(find(list, "NetworkPolicy", "r-undrift-web")!.spec.ingress).toContainEqual({
      ports: [{ port: "recorder", protocol: "TCP" }],
    });
    const worker = find(list, "Deployment", "r-undrift-worker-eu")!.spec.template.spec.containers[0];
    expect(JSON.stringify(worker)).not.toContain("RECORDER");
  });

  it("is off by default, and a port without its certificate or secret fails the render naming the value", () => {
    const off = renderChart({ clusters: on.clusters, workers: on.workers });
    expect(JSON.stringify(find(off, "Deployment", "r-undrift-web"))).not.toContain("RECORDER");
    expect(() => renderChart({ ...on, attribution: { recorder: { port: 8443, existingSecret: "s" } } })).toThrow(
      /attribution\.recorder\.tlsSecret is required with attribution\.recorder\.port/,
    );
    expect(() => renderChart({ ...on, attribution: { recorder: { port: 8443, tlsSecret: "t" } } })).toThrow(
      /attribution\.recorder\.existingSecret is required with attribution\.recorder\.port/,
    );
  });
});
