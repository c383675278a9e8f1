// Prints, last in the log, the failing tests (file, name and the first line of their first error) and one plain
// closing line, `tests: N passed, N failed, N skipped`, that CI logs and tools read the same way whatever runner
// produced them: the reason a run failed is then in its last lines, not thousands of lines above.
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** The first line of an error's message, as a person scanning the log's tail needs it. */
function firstLine(message: string | undefined): string {
  const line = (message ?? "").split("\n").find((text) => text.trim() !== "") ?? "(no message)";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of modules) {
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
    if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join("\n")}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
