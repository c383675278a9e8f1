// Every GitHub request goes through src/github/ (README "Architecture"): there
// it is named, wrapped in githubStep (so its failure is classified for the
// queue) and found again when a route or its handling changes. dependency-cruiser
// sees imports only, and every layer above github/ imports Probot's types, so
// the rule is checked here, on the calls themselves: outside src/github/, no
// `.request(`, `.paginate(` or `.graphql(` on a GitHub client.
//
// A client is told by the type checker, not by its name: the method called is
// flagged when its declaration is Octokit's (node_modules/@octokit/ or
// node_modules/octokit/), whatever the variable is called and however it was
// typed (ProbotOctokit, Octokit, GitHubClient = Pick<Octokit, "request">). A
// Kubernetes or HTTP client with a method of that name (node:https's
// `request`) is declared elsewhere and is not flagged: github-requests.fixture.ts
// holds one of each, checked in the same program.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");
const src = join(root, "src");
const fixture = join(import.meta.dirname, "github-requests.fixture.ts");
const METHODS = new Set(["request", "paginate", "graphql"]);
const OCTOKIT = /[\\/]node_modules[\\/](@octokit[\\/]|octokit[\\/])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** src/ and the fixture in one program, type-checked as tsconfig.json says. */
function program(): ts.Program {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram([...sourceFiles(src), fixture], { ...options, noEmit: true });
}

/** `src/app/x.ts:12: octokit.request(...)` for each GitHub request made in `files`. */
function githubRequests(program: ts.Program, files: string[]): string[] {
  const checker = program.getTypeChecker();
  const octokitDeclared = (symbol: ts.Symbol | undefined): boolean => {
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return (target?.declarations ?? []).some((d) => OCTOKIT.test(d.getSourceFile().fileName));
  };
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file}: not in the program`);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        METHODS.has(node.expression.name.text) &&
        octokitDeclared(checker.getSymbolAtLocation(node.expression.name))
      ) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        const call = node.getText(source).split("\n")[0];
        found.push(`${relative(root, file)}:${line + 1}: ${call}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("GitHub requests", () => {
  // The whole of src/ type-checked once, for both checks: seconds, not the unit tier's usual milliseconds.
  let checked: ts.Program | undefined;
  const checkedProgram = () => {
    checked ??= program();
    return checked;
  };

  it("are told from other clients' calls by the type checker", { timeout: 120_000 }, () => {
    const lines = readFileSync(fixture, "utf8").split("\n");
    const marked = lines.flatMap((text, i) => (text.endsWith("// flagged") ? [i + 1] : []));
    const found = githubRequests(checkedProgram(), [fixture]).map((f) => Number(f.split(":")[1]));
    expect(marked).toHaveLength(4);
    expect(found).toEqual(marked);
  });

  it("are made in src/github/ only", { timeout: 120_000 }, () => {
    const outside = sourceFiles(src).filter((file) => !relative(src, file).startsWith("github/"));
    expect(githubRequests(checkedProgram(), outside)).toEqual([]);
  });
});
