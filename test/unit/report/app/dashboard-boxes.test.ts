// Reading a dashboard edit: which boxes the edit newly ticked, whatever people
// did to the visible text, and undrift's own unticking and log lines.
import { describe, expect, it } from "vitest";
import { addLogLines, LOG_MARKER, newlyTicked, untick } from "../../../../src/report/app/dashboard-boxes.ts";

const box = (checked: boolean, label: string, action: string, id: string) =>
  `  - [${checked ? "x" : " "}] ${label} <!-- undrift:box action=${action} id=${id} -->`;

const before = [
  "intro",
  box(false, "**rescan now**", "rescan", "aaaa0001"),
  box(true, "codify", "codify", "aaaa0002"),
  box(false, "revert", "revert", "aaaa0003"),
  box(false, "snooze 1 day", "snooze-1d", "aaaa0004"),
  "",
  LOG_MARKER,
].join("\n");

describe("newlyTicked", () => {
  it("finds the boxes ticked by this edit, not those ticked before", () => {
    const after = before.replace("[ ] revert", "[x] revert").replace("[ ] snooze", "[X] snooze");
    expect(newlyTicked(before, after)).toEqual([
      { id: "aaaa0003", action: "revert" },
      { id: "aaaa0004", action: "snooze-1d" },
    ]);
  });

  it("follows the hidden id, not the visible text a person rewrote", () => {
    const after = before.replace("[ ] revert", "[x] put it back please");
    expect(newlyTicked(before, after)).toEqual([{ id: "aaaa0003", action: "revert" }]);
  });

  it("sees nothing in an unticking, a text edit, or a box whose marker was mangled", () => {
    expect(newlyTicked(before, before.replace("[x] codify", "[ ] codify"))).toEqual([]);
    expect(newlyTicked(before, before.replace("intro", "new intro"))).toEqual([]);
    const mangled = before.replace(
      "[ ] revert <!-- undrift:box action=revert",
      "[x] revert <!-- undrift:box action=destroy",
    );
    expect(newlyTicked(before, mangled)).toEqual([]);
  });

  it("counts a box ticked twice in one body once", () => {
    const twice = `${before}\n${box(true, "again", "revert", "aaaa0003")}`;
    expect(newlyTicked(before, twice.replace("[ ] revert", "[x] revert"))).toEqual([
      { id: "aaaa0003", action: "revert" },
    ]);
  });
});

describe("untick and addLogLines", () => {
  it("unticks only the boxes named, leaving every other character as it was", () => {
    const ticked = before.replace("[ ] revert", "[x] revert");
    const after = untick(ticked, new Set(["aaaa0003"]));
    expect(after).toBe(before);
    expect(untick(ticked, new Set(["ffff0000"]))).toBe(ticked);
  });

  it("puts the newest lines right below the log marker, or at the end when the marker was removed", () => {
    const once = addLogLines(before, ["@bob asked for a rescan"]);
    const twice = addLogLines(once, ["@ann snoozed x"]);
    expect(twice.endsWith(`${LOG_MARKER}\n- @ann snoozed x\n- @bob asked for a rescan`)).toBe(true);
    expect(addLogLines("no marker", ["@bob did"])).toBe("no marker\n\n- @bob did");
  });
});
