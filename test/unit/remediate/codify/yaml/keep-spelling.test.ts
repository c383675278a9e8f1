// Codify writes a value back in the spelling its file used, as kubectl reads it.
import { describe, expect, it } from "vitest";
import { setYamlValue } from "../../../../../src/remediate/codify/yaml/set-yaml-value.ts";

const pod = (mode: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n    - name: s\n      secret:\n        secretName: s\n        defaultMode: ${mode} # rwx\n`;
const modePath = ["f:spec", "f:volumes", 'k:{"name":"s"}', "f:secret", "f:defaultMode"];
const set = (text: string, path: string[], value: unknown) =>
  setYamlValue({ file: "p.yaml", text, document: 0, path, value });

describe("codify keeps a value's spelling", () => {
  it("leaves `0644` alone when the cluster holds 420, which is the same mode", () => {
    expect(set(pod("0644"), modePath, 420)).toBe(pod("0644"));
  });

  it("writes a changed octal mode in octal", () => {
    expect(set(pod("0644"), modePath, 493)).toBe(pod("0755"));
    expect(set(pod("0400"), modePath, 384)).toBe(pod("0600"));
    expect(set(pod("0o644"), modePath, 493)).toBe(pod("0o755"));
  });

  it("writes a changed hex value in hex, and a decimal one in decimal", () => {
    expect(set("a: 0xFF\n", ["f:a"], 4095)).toBe("a: 0xFFF\n");
    expect(set("a: 420\n", ["f:a"], 493)).toBe("a: 493\n");
  });

  it("keeps a YAML 1.1 boolean's family", () => {
    expect(set("a: yes\n", ["f:a"], false)).toBe("a: no\n");
    expect(set("a: On\n", ["f:a"], false)).toBe("a: Off\n");
    expect(set("a: yes\n", ["f:a"], true)).toBe("a: yes\n");
  });

  it("quotes a new string that kubectl would read as another type", () => {
    for (const value of ["0o17", "y", "1_000"])
      expect(set("a: x\n", ["f:a"], value)).toBe(`a: ${JSON.stringify(value)}\n`);
  });
});
