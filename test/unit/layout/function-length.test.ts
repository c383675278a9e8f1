// No function in src/ runs over about 80 lines (README "Architecture"), so each
// reads on one screen and says one step; a longer one is split where its steps
// are. The exceptions are declarative tables, named here with why, and in the
// README: a list of definitions is read down, not followed.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const MAX_LINES = 80;
/** `file:function` → why it may be longer. */
const EXCEPTIONS: Record<string, string> = {
  "src/metrics/undrift-metrics.ts:createMetrics": "a table of the Prometheus series, one definition each",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `file:name (N lines)` for each named function, method or arrow function over `max` lines in `text`. */
function longFunctions(file: string, text: string, max: number): Array<{ id: string; lines: number }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ id: string; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    let name: string | undefined;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body)
      name = node.name?.getText(source);
    else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent))
      name = node.parent.name.getText(source);
    if (name) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      if (end - start + 1 > max) found.push({ id: `${file}:${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  it(`finds no function in src/ over ${MAX_LINES} lines but the named tables`, () => {
    const long = sourceFiles(join(root, "src")).flatMap((path) =>
      longFunctions(relative(root, path), readFileSync(path, "utf8"), MAX_LINES),
    );
    expect(long.filter((f) => !(f.id in EXCEPTIONS)).map((f) => `${f.id} (${f.lines} lines)`)).toEqual([]);
    // An exception that is no longer long is taken off the list.
    expect(Object.keys(EXCEPTIONS).filter((id) => !long.some((f) => f.id === id))).toEqual([]);
  });

  it("counts declared functions, methods and functions held by a variable, nested ones too", () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = `function outer() {\n${body}\n  const inner = () => {\n${body}\n  };\n}\nclass C {\n  m() {\n${body}\n  }\n}\nconst f = function () {\n${body}\n};\n`;
    expect(longFunctions("x.ts", text, 4).map((f) => f.id)).toEqual(["x.ts:outer", "x.ts:inner", "x.ts:m", "x.ts:f"]);
  });
});
