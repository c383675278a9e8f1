// undrift completion bash|zsh: prints the completion script for that shell.
import { commandSpecs, completionShells } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { renderBashCompletion, renderZshCompletion } from "./render-completion.ts";

export async function completionCommand(argv: string[]): Promise<number> {
  const [shell, ...rest] = argv;
  if (!shell || rest.length > 0 || !(completionShells as readonly string[]).includes(shell)) {
    const got = shell === undefined ? "nothing" : `"${argv.join(" ")}"`;
    throw new UsageError(`completion: expected one of ${completionShells.join(", ")}, got ${got}`);
  }
  process.stdout.write(shell === "bash" ? renderBashCompletion(commandSpecs) : renderZshCompletion(commandSpecs));
  return 0;
}
