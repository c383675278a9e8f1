// `undrift __complete WORD...` (hidden, as cobra's is): what bin/kubectl_complete-undrift
// runs when kubectl's completion asks the plugin. See complete-words.ts for the protocol.
import { execFileSync } from "node:child_process";
import { commandSpecs } from "./command-specs.ts";
import { completeWords, completionText } from "./complete-words.ts";

export async function completeCommand(words: string[]): Promise<number> {
  process.stdout.write(completionText(completeWords(commandSpecs, words, kubeconfigContexts)));
  return 0;
}

/** The contexts of the user's kubeconfig as kubectl lists them (it honours KUBECONFIG); none when kubectl fails. */
function kubeconfigContexts(): string[] {
  try {
    const out = execFileSync("kubectl", ["config", "get-contexts", "-o", "name"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5_000,
    });
    return out.split("\n").filter(Boolean);
  } catch {
    // A completion offers nothing rather than print an error into the user's command line.
    return [];
  }
}
