import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubeconfigError } from "../../../src/live/errors.ts";
import { loadKubeconfig } from "../../../src/live/load-kubeconfig.ts";

const canary = "canary-token-9d2f77";

describe("loadKubeconfig: a broken credential file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "undrift-kubeconfig-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const failure = (file: string) => {
    try {
      loadKubeconfig({ kubeconfig: file });
    } catch (error) {
      if (error instanceof KubeconfigError) return error.message;
      throw error;
    }
    throw new Error("expected a KubeconfigError");
  };

  it("names the file and line of a YAML mistake, never the token beside it", async () => {
    const file = join(dir, "config");
    const text = [
      "apiVersion: v1",
      "kind: Config",
      "users:",
      "- name: u",
      "  user:",
      `    token: "${canary}"`,
      "   extra: bad",
      "",
    ].join("\n");
    await writeFile(file, text);
    const message = failure(file);
    expect(message).toBe(`${file}:7: not valid YAML: bad indentation of a mapping entry, column 4`);
    expect(message).not.toContain(canary);
    expect(message).not.toContain("\n");
  });

  it("names a missing field without quoting the file", async () => {
    const file = join(dir, "config");
    await writeFile(
      file,
      `clusters: [{name: c}]\nusers: [{name: u, user: {token: ${canary}}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
    );
    const message = failure(file);
    expect(message).toBe(`${file}: clusters[0].cluster is missing`);
  });
});
