import { describe, expect, it } from "vitest";
import { clip, oneLine } from "../../../src/model/one-line.ts";

describe("oneLine", () => {
  it("turns each run of control characters into one space, so cluster text cannot drive a terminal", () => {
    expect(oneLine("denied \u001b[2J\u001b[31mnext\r\n\tline\u0085end")).toBe("denied  [2J [31mnext line end");
  });

  it("folds only line breaks and trims, keeping a message's own spacing, with fold: breaks", () => {
    expect(oneLine("  kustomize:\n   accumulating\tresources \n", { fold: "breaks" })).toBe(
      "kustomize: accumulating\tresources",
    );
  });

  it("cuts to max with an ellipsis as the last character", () => {
    expect(oneLine("abc\ndef", { max: 5 })).toBe("abc …");
    expect(clip("abcdef", 6)).toBe("abcdef");
  });
});
