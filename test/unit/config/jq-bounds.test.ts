// A jq expression that hoards memory is stopped by a memory bound, whatever its time bound, and named where it is written.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, onTestFinished, vi } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { JQ_OUTPUT_CHARS, JqMemoryError, jqLimits, runJq } from "../../../src/config/jq-runner.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { stripIgnored } from "../../../src/drift/ignore-rules.ts";
import { loadJq } from "../../../src/drift/jq.ts";
import { Ownership } from "../../../src/drift/managed-fields.ts";
import type { KubeObject } from "../../../src/model/types.ts";

const withJq = (expression: string) =>
  [
    "targets:",
    "  - name: a",
    "    cluster: c",
    "    path: p",
    "    ignoreDifferences:",
    "      - kind: ConfigMap",
    "        jqPathExpressions:",
    "          - .data.a",
    `          - ${JSON.stringify(expression)}`,
    "",
  ].join("\n");

function messageOf(text: string): string {
  try {
    loadConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected loadConfig to throw a ConfigError");
}

describe("jq's memory bound", { timeout: 240_000 }, () => {
  let stderr: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    // A clock this generous never stops these filters: what stops them is the memory bound.
    jqLimits.timeoutMs = 120_000;
    stderr = vi.spyOn(process.stderr, "write");
  });
  afterEach(() => {
    jqLimits.timeoutMs = 1000;
    stderr.mockRestore();
  });

  it.each(["[range(1e7)] | .data", "[range(1e9)] | .data"])(
    "refuses %s when the config loads, naming file, line and field",
    (expression) => {
      expect(messageOf(withJq(expression))).toBe(
        `.github/undrift.yml:8: targets[0].ignoreDifferences[0].jqPathExpressions: ${expression}: jq: needed more than 64 MiB of memory on an empty input`,
      );
      // The chart gives a worker 512 MiB; unbounded, these took 653 MiB and 2.1 GiB.
      expect(process.memoryUsage().rss).toBeLessThan(512 * 1024 * 1024);
    },
  );

  it("fails the scan on an object that makes an expression hoard, naming the rule and the object", async () => {
    const hoard = ".data | select(. != null) | [range(1e9)]";
    const config = loadConfig(withJq(hoard));
    const object: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "n" },
      data: {},
    };
    const strip = async () =>
      stripIgnored({
        objects: [object],
        rules: config.targets[0]!.ignoreDifferences,
        ownership: Ownership.of(object),
        jq: await loadJq(),
      });
    const thrown = await strip().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(JqMemoryError);
    expect((thrown as Error).message).toBe(
      `.github/undrift.yml:9: targets[0].ignoreDifferences[0].jqPathExpressions: ${hoard}: jq: needed more than 64 MiB of memory on ConfigMap/n/c`,
    );
    expect(process.memoryUsage().rss).toBeLessThan(512 * 1024 * 1024);
  });

  it("refuses an answer too large to bring back, before it reaches JavaScript", () => {
    // 600,000 numbers of 7 digits: about 4.8 million characters as JSON, in a few MiB of jq memory.
    expect(() => runJq(null, "[range(6e5) | 9999999]")).toThrow(
      new JqMemoryError(`jq: answered with more than ${JQ_OUTPUT_CHARS} characters`, { file: ".github/undrift.yml" }),
    );
    expect(runJq({ a: 1 }, "[path(.a)]")).toEqual([["a"]]);
  });

  it("keeps jq working afterwards, and WebAssembly's Aborted() never reaches stderr", async () => {
    expect(messageOf(withJq("[range(1e9)] | .data"))).toMatch(/needed more than 64 MiB of memory/);
    const jq = await loadJq();
    expect(jq.paths({ data: { a: "1" } }, ".data.a")).toEqual([["data", "a"]]);
    // Anything the stopped thread printed would have arrived by now, with the answer of its successor.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join("")).not.toMatch(/Aborted/);
  });
});

describe("a process that ran jq", () => {
  // The thread is unref'd so that a CLI run ends after its last line; streams of the thread's output once held
  // the process open, so every scan with a jq rule hung at its end.
  it("ends by itself once its work is done", async () => {
    const runner = new URL("../../../src/config/jq-runner.ts", import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), "undrift-jq-exit-"));
    const script = join(dir, "run.mjs");
    writeFileSync(
      script,
      `import { runJq } from ${JSON.stringify(runner)};\nprocess.stdout.write(JSON.stringify(runJq({ a: 1 }, ".a")));\n`,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
    onTestFinished(() => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect({ code, stdout }).toEqual({ code: 0, stdout: "1" });
  });
});
