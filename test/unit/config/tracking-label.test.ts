import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config.ts";
import { trackingLabel } from "../../../src/config/tracking-label.ts";

function targetWith(tracking: string) {
  const config = loadConfig(`targets:\n  - {name: infra, cluster: prod-eu, path: infra${tracking}}\n`);
  return config.targets[0]!;
}

describe("trackingLabel", () => {
  it("is the label undrift adds to desired objects when the target keeps the default selector", () => {
    expect(trackingLabel(targetWith(""))).toEqual({ key: "undrift.dev/target", value: "infra" });
  });

  it("treats the default written out (with = or ==) as the default", () => {
    expect(trackingLabel(targetWith(", tracking: {selector: undrift.dev/target=infra}"))).toEqual({
      key: "undrift.dev/target",
      value: "infra",
    });
    expect(trackingLabel(targetWith(", tracking: {selector: 'undrift.dev/target==infra'}"))).toBeDefined();
  });

  it("is undefined when the target tracks objects by another label, so undrift adds nothing", () => {
    expect(trackingLabel(targetWith(", tracking: {selector: kustomize.toolkit.fluxcd.io/name=apps}"))).toBeUndefined();
    expect(trackingLabel(targetWith(", tracking: {selector: undrift.dev/target=other}"))).toBeUndefined();
    expect(trackingLabel(targetWith(", tracking: {selector: 'undrift.dev/target=infra,tier=web'}"))).toBeUndefined();
  });
});
