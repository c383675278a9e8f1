// `undrift __complete WORD...`: the completions of the last word, in the protocol
// of cobra's `__complete` (one candidate per line, tab and description allowed,
// then `:N`, a directive). kubectl speaks it to its plugins: since kubectl 1.26,
// `kubectl undrift <TAB>` runs `kubectl_complete-undrift WORD...` from the PATH
// and hands its answer to kubectl's own bash or zsh completion, so users of the
// plugin get undrift's flags and values without installing a second script.
// Made from command-specs.ts, as the bash and zsh scripts are.
import type { CommandSpec } from "./command-specs.ts";
import { valueKind } from "./render-completion.ts";

/** cobra's ShellCompDirective bits, as kubectl's completion scripts read them. */
export const Directive = {
  /** Complete file names as the shell would (a FILE flag). */
  files: 0,
  noSpace: 2,
  noFiles: 4,
  /** Complete folder names only (a DIR flag). */
  dirs: 16,
} as const;

export interface Completion {
  candidates: string[];
  directive: number;
}

/**
 * The completions of `words.at(-1)` (empty when the cursor follows a space) after `undrift words...`.
 * `contexts` lists the kubeconfig's contexts, asked only when `--context` is being completed.
 */
export function completeWords(
  specs: Record<string, CommandSpec>,
  words: readonly string[],
  contexts: () => string[] = () => [],
): Completion {
  const current = words.at(-1) ?? "";
  const starting = (candidates: readonly string[]) => candidates.filter((c) => c.startsWith(current));
  if (words.length <= 1) {
    const commands = current.startsWith("-") ? ["--help", "--version"] : [...Object.keys(specs), "help"];
    return { candidates: starting(commands), directive: Directive.noFiles };
  }
  const name = words[0]!;
  if (name === "help") {
    return { candidates: words.length === 2 ? starting(Object.keys(specs)) : [], directive: Directive.noFiles };
  }
  const spec = specs[name];
  if (!spec) return { candidates: [], directive: Directive.noFiles };

  // The value of a flag: `--output j` (the previous word is the flag) or `--output=j`.
  const previous = words.at(-2) ?? "";
  const joined = current.match(/^--([^=]+)=(.*)$/);
  const flagName = joined ? joined[1]! : previous.startsWith("-") ? flagNamed(spec, previous) : undefined;
  const flag = flagName ? spec.flags[flagName] : undefined;
  if (flag && flag.type === "string" && (joined || !previous.includes("="))) {
    const prefix = joined ? `--${flagName}=` : "";
    const typed = joined ? joined[2]! : current;
    const kind = valueKind(flagName!, flag);
    if (kind === "dir" || kind === "file") {
      // The shell lists the paths; with --flag= it could not tell where the path starts, so nothing is offered.
      if (joined) return { candidates: [], directive: Directive.noFiles };
      return { candidates: [], directive: kind === "dir" ? Directive.dirs : Directive.files };
    }
    const values = kind === "context" ? contexts() : kind === "none" ? [] : [...kind.choices];
    return {
      candidates: values.filter((v) => v.startsWith(typed)).map((v) => `${prefix}${v}`),
      directive: Directive.noFiles,
    };
  }

  if (current.startsWith("-")) {
    const used = new Set(words.slice(1, -1).map((w) => flagNamed(spec, w.split("=")[0]!)));
    const flags = Object.entries(spec.flags)
      .filter(([long, f]) => !used.has(long) || f.multiple)
      .map(([long, f]) => `--${long}\t${f.description}`);
    const offered = [...flags, "--help\tthis command's help"].filter((c) => c.startsWith(current));
    return { candidates: offered, directive: Directive.noFiles };
  }
  const positional = spec.positional && words.slice(1, -1).every((w) => w.startsWith("-"));
  return { candidates: positional ? starting(spec.positional!.split("|")) : [], directive: Directive.noFiles };
}

/** The long name of `--repo` or `-o` in `spec`, or undefined for a word that names no flag of it. */
function flagNamed(spec: CommandSpec, word: string): string | undefined {
  if (word.startsWith("--")) return word.slice(2) in spec.flags ? word.slice(2) : undefined;
  return Object.entries(spec.flags).find(([, f]) => f.short && `-${f.short}` === word)?.[0];
}

/** The protocol's text: candidates one per line, then `:directive`. */
export function completionText(completion: Completion): string {
  return `${[...completion.candidates, `:${completion.directive}`].join("\n")}\n`;
}
