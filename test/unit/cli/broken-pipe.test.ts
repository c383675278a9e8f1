// `undrift scan | head -1`: the reader of stdout goes away while undrift still has
// lines to write. A Unix tool dies of SIGPIPE there, quietly; undrift must not
// print Node's stack trace for the EPIPE that Node gets instead.
import { describe, expect, it } from "vitest";
import { startUndrift } from "../../helpers/cli-process.ts";

describe("stdout read by a pipe whose reader has gone", () => {
  it.each([["--help"], ["completion", "bash"]])(
    "undrift %s exits quietly, with 141 as a tool killed by SIGPIPE",
    async (...args) => {
      const cli = startUndrift(args);
      // Closed before undrift writes anything (start-up takes far longer): every write meets EPIPE, as a write after
      // `head -1` has read its line and exited does.
      cli.child.stdout!.destroy();
      expect(await cli.exited).toBe(141);
      expect(cli.stderr()).toBe("");
    },
  );
});
