// `discover:` in .github/undrift.yml (DESIGN.md "Targets discovered from Flux and Argo CD").
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config.ts";

const messageOf = (text: string) => {
  try {
    loadConfig(text);
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

describe("discover:", () => {
  it("is a config on its own: no targets written, every default filled in", () => {
    const config = loadConfig("discover:\n  - cluster: prod-eu\n    flux: true\n");
    expect(config.targets).toEqual([]);
    expect(config.discover).toEqual([{ cluster: "prod-eu", flux: true, argo: false, mode: "warn" }]);
  });

  it("sits beside targets, and a config without it has an empty list", () => {
    const text = "targets:\n  - name: infra\n    cluster: prod\n    path: apps\n";
    expect(loadConfig(text).discover).toEqual([]);
    const both = loadConfig(`${text}discover:\n  - cluster: prod\n    argo: true\n    mode: revert\n    prune: true\n`);
    expect(both.targets.map((t) => t.name)).toEqual(["infra"]);
    expect(both.discover).toEqual([{ cluster: "prod", flux: false, argo: true, mode: "revert", prune: true }]);
  });

  it.each([
    [
      "names no reconciler",
      "discover:\n  - cluster: prod\n",
      ".github/undrift.yml:2: discover[0]: names no reconciler: set flux: true, argo: true or both",
    ],
    ["an empty list", "discover: []\n", ".github/undrift.yml:1: discover: needs at least one cluster"],
    [
      "a cluster twice",
      "discover:\n  - cluster: prod\n    flux: true\n  - cluster: prod\n    argo: true\n",
      '.github/undrift.yml:4: discover[1].cluster: "prod" is already discovered by discover[0]',
    ],
    [
      "an address for a cluster",
      "discover:\n  - cluster: https://user:pw@k8s.example.com\n    flux: true\n",
      ".github/undrift.yml:2: discover[0].cluster: expected the name of a cluster in the server's registry, not an address (which may carry credentials)",
    ],
    [
      "a field it does not know",
      "discover:\n  - cluster: prod\n    flux: true\n    path: apps\n",
      ".github/undrift.yml:4: discover[0].path: unknown field; expected one of cluster, flux, argo, mode, prune",
    ],
  ])("refuses %s, naming the line and field", (_, text, message) => {
    expect(messageOf(text)).toBe(message);
  });

  it("still needs targets when it is absent", () => {
    expect(messageOf("schedule: 15m\n")).toBe(".github/undrift.yml:1: targets: required field is missing");
  });
});
