// Prints, last in the log, the failing tests (file, name and the first line of their first error) and one plain
// closing line, `tests: N passed, N failed, N skipped`, that CI logs and tools read the same way whatever runner
// produced them: the reason a run failed is then in its last lines, not thousands of lines above. Before it, one
// line per tier (vitest project): its files, its tests and its wall-clock time from its first file's start to its
// last file's end, so a run's log says what each tier costs.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** The first line of an error's message, as a person scanning the log's tail needs it. */
function firstLine(message: string | undefined): string {
  const line = (message ?? "").split("\n").find((text) => text.trim() !== "") ?? "(no message)";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Wall-clock span of a tier's files, in milliseconds since the epoch. */
interface Span {
  first: number;
  last: number;
}

export default class SummaryReporter implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name;
    const now = Date.now();
    const span = this.spans.get(name);
    if (!span) this.spans.set(name, { first: now, last: now });
    else span.first = Math.min(span.first, now);
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (span) span.last = Math.max(span.last, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    const tiers = new Map<string, { files: number; tests: number }>();
    for (const module of modules) {
      const tier = tiers.get(module.project.name) ?? { files: 0, tests: 0 };
      tiers.set(module.project.name, {
        files: tier.files + 1,
        tests: tier.tests + [...module.children.allTests()].length,
      });
      const file = relative(process.cwd(), module.moduleId);
      // A file that failed before its tests ran (an import error, a failing beforeAll) has no failed test of its own.
      for (const error of module.errors()) failures.push(`${file}: ${firstLine(error.message)}`);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") passed++;
        else if (result.state === "failed") {
          failed++;
          failures.push(`${file} > ${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else skipped++;
      }
    }
    for (const error of unhandledErrors) failures.push(`unhandled error: ${firstLine(error.message)}`);
    for (const [name, { files, tests }] of tiers) {
      const span = this.spans.get(name);
      const seconds = span ? ((span.last - span.first) / 1000).toFixed(1) : "?";
      console.log(
        `tier ${name}: ${files} files, ${tests} tests, ${seconds} s from its first file's start to its last's end`,
      );
    }
    if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join("\n")}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
