// `kubectl undrift <TAB>`: kubectl (1.26+) asks kubectl_complete-undrift on the PATH
// and its own bash and zsh completion show the answer. Run through the real kubectl,
// with the checkout's two commands linked into a scratch folder on the PATH, as
// `npm install -g` links them.
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";

const root = resolve(import.meta.dirname, "../../..");
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "undrift-plugin-"));
  await symlink(join(root, "bin/undrift.js"), join(dir, "kubectl-undrift"));
  await symlink(join(root, "bin/kubectl_complete-undrift.js"), join(dir, "kubectl_complete-undrift"));
  const kubeconfig = join(dir, "config");
  const cluster = (name: string) => ({ name, cluster: { server: "https://127.0.0.1:1" } });
  await writeFile(
    kubeconfig,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [cluster("a"), cluster("b")],
      users: [{ name: "u", user: {} }],
      contexts: [
        { name: "kind-prod", context: { cluster: "a", user: "u" } },
        { name: "kind-dev", context: { cluster: "b", user: "u" } },
      ],
      "current-context": "kind-prod",
    }),
  );
  // The pinned Node first (bin/undrift.js's shebang finds `node`), then the links, then the machine's kubectl.
  env = {
    ...process.env,
    KUBECONFIG: kubeconfig,
    PATH: [dirname(process.execPath), dir, process.env.PATH].join(delimiter),
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What kubectl's completion scripts run on <TAB>: `kubectl __complete undrift WORD...`, its stdout. */
async function kubectlComplete(...words: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("kubectl", ["__complete", "undrift", ...words], { env });
  return stdout;
}

describe("kubectl undrift <TAB>", () => {
  it("completes undrift's commands, flags and values through kubectl", async () => {
    expect(await kubectlComplete("sc")).toBe("scan\n:4\n");
    expect(await kubectlComplete("revert", "--pru")).toBe(
      "--prune\talso delete labelled objects Git no longer declares\n:4\n",
    );
    expect(await kubectlComplete("scan", "--output", "")).toBe("text\njson\nmarkdown\n:4\n");
    // --repo: the shell lists folders (cobra's ShellCompDirectiveFilterDirs).
    expect(await kubectlComplete("scan", "--repo", "")).toBe(":16\n");
  });

  it("completes --context with the contexts of the user's kubeconfig, as kubectl lists them", async () => {
    expect(await kubectlComplete("scan", "--context", "")).toBe("kind-dev\nkind-prod\n:4\n");
  });
});
