// A Flux post-build variable from a Secret, substituted into a ConfigMap or a Deployment, is shown in no report:
// the fields it reached are masked at the engine's exit like a Secret's own values.
import { describe, expect, it } from "vitest";
import { buildReport } from "../../../src/drift/build-report.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import { renderJson } from "../../../src/report/render-json.ts";
import { renderMarkdown } from "../../../src/report/render-markdown.ts";
import { renderText } from "../../../src/report/render-text.ts";

const secretValue = "hunter2-from-the-secret";
const source = { file: "apps/settings.yaml", document: 0 };

const configMap = (password: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "settings", namespace: "apps" },
  data: { level: "info", password },
});

const deployment: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "apps" },
  spec: { template: { spec: { containers: [{ name: "web", image: "nginx", args: [`--token=${secretValue}`] }] } } },
};

function report() {
  return buildReport({
    target: "ks-flux-system-apps",
    revision: "0c5f3e1",
    pairings: [
      {
        desired: { object: configMap(secretValue), source, sensitive: ["/data/password"] },
        live: configMap("edited-by-hand"),
        comparison: {
          changes: [
            { path: "/data/password", desired: secretValue, live: "edited-by-hand" },
            { path: "/data", desired: { password: secretValue }, live: { password: "edited-by-hand" } },
          ],
          live: configMap("edited-by-hand"),
          wouldBe: configMap(secretValue),
          needsDryRun: false,
          needsDefaults: false,
        },
      },
      {
        desired: { object: deployment, source, sensitive: ["/spec/template/spec/containers/0/args/0"] },
      },
    ],
    problems: [],
  });
}

describe("fields filled from a Secret by Flux's post-build substitution", () => {
  it("appear in no text, JSON or markdown report, masked as a Secret's values are", () => {
    const r = report();
    const outputs = [renderJson(r), renderText(r, { color: false }), renderMarkdown(r).join("\n")];
    for (const out of outputs) expect(out).not.toContain(secretValue);
    // Only the sensitive field is masked: the rest of the drift reads as usual.
    const json = JSON.parse(outputs[0]!);
    const settings = json.resources.find((x: { name: string }) => x.name === "settings");
    expect(settings.changes[0]).toMatchObject({ path: "/data/password", desired: "*** (after)", live: "*** (before)" });
    expect(r.resources[0]!.live?.data).toEqual({ level: "info", password: "***" });
    const web = json.resources.find((x: { name: string }) => x.name === "web");
    expect(web.wouldBe.spec.template.spec.containers[0]).toEqual({ name: "web", image: "nginx", args: ["***"] });
    expect(outputs[1]).toContain("/data/password: changed");
    expect(outputs[1]).toContain('+            - "***"');
  });
});
