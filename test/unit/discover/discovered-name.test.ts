import { describe, expect, it } from "vitest";
import { dnsLabel } from "../../../src/config/field-schemas.ts";
import { discoveredNames, plainName } from "../../../src/discover/discovered-name.ts";

const ks = (namespace: string, name: string, cluster = "prod") => ({
  cluster,
  kind: "Kustomization" as const,
  namespace,
  name,
});

describe("discovered target names", () => {
  it("are the kind's short name, the namespace and the name", () => {
    expect(plainName(ks("flux-system", "apps"))).toBe("ks-flux-system-apps");
    expect(plainName({ cluster: "prod", kind: "Application", namespace: "argocd", name: "guestbook" })).toBe(
      "app-argocd-guestbook",
    );
  });

  it("are DNS labels whatever the object's name (dots, 253 characters)", () => {
    const long = plainName(ks("flux-system", `apps.${"x".repeat(240)}`));
    expect(dnsLabel.safeParse(long).success).toBe(true);
    expect(long).toMatch(/^ks-flux-system-apps-x+-[0-9a-f]{6}$/);
    expect(dnsLabel.safeParse(plainName(ks("flux-system", "apps.v2"))).success).toBe(true);
  });

  it("tell apart two objects whose plain names would be the same, and stay stable", () => {
    const objects = [ks("a-b", "c"), ks("a", "b-c"), ks("team", "web")];
    const names = discoveredNames(objects);
    expect(names[0]).not.toBe(names[1]);
    expect(names[0]).toMatch(/^ks-a-b-c-[0-9a-f]{6}$/);
    expect(names[2]).toBe("ks-team-web");
    expect(discoveredNames([...objects].reverse())).toEqual([...names].reverse());
  });
});

describe("discovered target names on several clusters", () => {
  it("start with the cluster's name, so each cluster's flux-system/apps has its own", () => {
    const names = discoveredNames([
      { ...ks("flux-system", "apps", "prod"), clusterInName: true },
      { ...ks("flux-system", "apps", "staging"), clusterInName: true },
    ]);
    expect(names).toEqual(["prod-ks-flux-system-apps", "staging-ks-flux-system-apps"]);
  });
});
