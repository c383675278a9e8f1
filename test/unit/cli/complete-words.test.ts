// `undrift __complete`, the answer kubectl's completion reads from its plugins
// (cobra's protocol), made from the same flag tables as the parsers.
import { describe, expect, it } from "vitest";
import { commandSpecs } from "../../../src/cli/command-specs.ts";
import { completeWords, completionText, Directive } from "../../../src/cli/complete-words.ts";

const complete = (...words: string[]) => completeWords(commandSpecs, words, () => ["kind-prod", "kind-dev"]);
const names = (...words: string[]) => complete(...words).candidates.map((c) => c.split("\t")[0]);

describe("completing undrift's words", () => {
  it("offers the commands first, by what is typed, and never file names", () => {
    expect(names("")).toEqual([...Object.keys(commandSpecs), "help"]);
    expect(complete("sc")).toEqual({ candidates: ["scan"], directive: Directive.noFiles });
    expect(names("--v")).toEqual(["--version"]);
    expect(names("help", "re")).toEqual(["revert"]);
  });

  it("offers a command's flags with their descriptions, leaving out the ones already given", () => {
    expect(complete("scan", "--ou").candidates).toEqual(["--output\tthe format"]);
    expect(names("scan", "--repo", ".", "--")).not.toContain("--repo");
    expect(names("scan", "--repo=.", "--")).not.toContain("--repo");
    expect(names("scan", "--")).toContain("--help");
    expect(names("revert", "--")).toContain("--prune");
    expect(names("scan", "--")).not.toContain("--prune");
  });

  it("offers a flag's values: choices, contexts, folders for --repo, files for --kubeconfig", () => {
    expect(names("scan", "--output", "")).toEqual(["text", "json", "markdown"]);
    expect(names("scan", "-o", "j")).toEqual(["json"]);
    expect(names("revert", "--color=a")).toEqual(["--color=auto", "--color=always"]);
    expect(names("scan", "--context", "kind-p")).toEqual(["kind-prod"]);
    expect(complete("scan", "--repo", "")).toEqual({ candidates: [], directive: Directive.dirs });
    expect(complete("scan", "--kubeconfig", "")).toEqual({ candidates: [], directive: Directive.files });
    // A value nothing can guess (a target's name) offers nothing, not the folder's files.
    expect(complete("scan", "--target", "")).toEqual({ candidates: [], directive: Directive.noFiles });
  });

  it("offers completion's shells as its argument, and nothing for an unknown command", () => {
    expect(names("completion", "")).toEqual(["bash", "zsh"]);
    expect(names("completion", "zsh", "")).toEqual([]);
    expect(complete("nope", "")).toEqual({ candidates: [], directive: Directive.noFiles });
  });

  it("writes cobra's protocol: a candidate per line, then the directive", () => {
    expect(completionText(complete("scan", "--output", "m"))).toBe("markdown\n:4\n");
  });
});
