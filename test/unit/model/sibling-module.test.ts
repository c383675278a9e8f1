import { describe, expect, it } from "vitest";
import { siblingModule } from "../../../src/model/sibling-module.ts";

describe("siblingModule", () => {
  it("keeps .ts beside a TypeScript source", () => {
    expect(siblingModule("./jq-thread.ts", "file:///repo/src/config/jq-runner.ts").href).toBe(
      "file:///repo/src/config/jq-thread.ts",
    );
  });

  it("names the compiled .js beside a module of dist/", () => {
    expect(siblingModule("./jq-thread.ts", "file:///pkg/dist/config/jq-runner.js").href).toBe(
      "file:///pkg/dist/config/jq-thread.js",
    );
  });
});
