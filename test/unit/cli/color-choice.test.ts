// One rule for colour in every command: --color, then NO_COLOR, then FORCE_COLOR, then the terminal.
import { describe, expect, it } from "vitest";
import { useColor } from "../../../src/cli/color-choice.ts";

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe("useColor", () => {
  it("colours a terminal and not a pipe by default", () => {
    expect(useColor({ choice: "auto", stream: tty, env: {} })).toBe(true);
    expect(useColor({ choice: undefined, stream: pipe, env: {} })).toBe(false);
  });

  it("honours NO_COLOR on a terminal, unless it is empty", () => {
    expect(useColor({ choice: "auto", stream: tty, env: { NO_COLOR: "1" } })).toBe(false);
    expect(useColor({ choice: "auto", stream: tty, env: { NO_COLOR: "" } })).toBe(true);
  });

  it("lets FORCE_COLOR colour a pipe, but not over NO_COLOR, and FORCE_COLOR=0 turn colour off", () => {
    expect(useColor({ choice: "auto", stream: pipe, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(useColor({ choice: "auto", stream: pipe, env: { FORCE_COLOR: "" } })).toBe(true);
    expect(useColor({ choice: "auto", stream: tty, env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).toBe(false);
    expect(useColor({ choice: "auto", stream: tty, env: { FORCE_COLOR: "0" } })).toBe(false);
    expect(useColor({ choice: "auto", stream: tty, env: { FORCE_COLOR: "false" } })).toBe(false);
  });

  it("does not colour TERM=dumb", () => {
    expect(useColor({ choice: "auto", stream: tty, env: { TERM: "dumb" } })).toBe(false);
  });

  it("lets --color always and never win over the environment", () => {
    expect(useColor({ choice: "always", stream: pipe, env: { NO_COLOR: "1" } })).toBe(true);
    expect(useColor({ choice: "never", stream: tty, env: { FORCE_COLOR: "1" } })).toBe(false);
  });

  it("refuses another value, naming the choices", () => {
    expect(() => useColor({ choice: "yes", stream: tty, env: {} })).toThrow(
      '--color: expected one of auto, always, never, got "yes"',
    );
  });
});
