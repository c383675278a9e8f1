// Cuts `helm template` output into its documents and names the repository file
// each came from, through the `# Source: <chart>/templates/<file>` comment helm
// writes above every document.
import { access } from "node:fs/promises";
import { join, posix } from "node:path";

/** Each printed document's text with its repo-relative template file (`chartFile` when helm named none). */
export async function splitHelmOutput({
  output,
  repoDir,
  targetPath,
  chartFile,
}: {
  output: string;
  repoDir: string;
  targetPath: string;
  chartFile: string;
}): Promise<{ file: string; text: string }[]> {
  return Promise.all(
    chunks(output).map(async ({ source, text }) => ({
      file: source ? await templateFile({ repoDir, targetPath, source }) : chartFile,
      text,
    })),
  );
}

/** Helm's output as one chunk per `---`, each with the template path of the `# Source:` comment that heads it. */
function chunks(output: string): { source: string | undefined; text: string }[] {
  const found: { source: string | undefined; lines: string[] }[] = [];
  for (const line of output.split("\n")) {
    if (line.trimEnd() === "---") {
      found.push({ source: undefined, lines: [] });
      continue;
    }
    if (found.length === 0) found.push({ source: undefined, lines: [] });
    const chunk = found.at(-1)!;
    const source = /^# Source: (.+)$/.exec(line)?.[1];
    // Without the header lines, line numbers count from the rendered document's first line.
    if (source && chunk.source === undefined && chunk.lines.length === 0) chunk.source = source.trim();
    else chunk.lines.push(line);
  }
  return found.map(({ source, lines }) => ({ source, text: lines.join("\n") }));
}

/**
 * `<chart>/templates/x.yaml` -> `<target>/templates/x.yaml`, `<chart>/charts/<sub>/...` -> `<target>/charts/<sub>/...`.
 * A subchart packed as a .tgz has no such file: its source is the Chart.yaml of the deepest chart folder that exists.
 */
async function templateFile({ repoDir, targetPath, source }: { repoDir: string; targetPath: string; source: string }) {
  const parts = source.split("/").slice(1);
  const file = posix.join(targetPath, ...parts);
  if (await exists(join(repoDir, file))) return file;
  let chart = targetPath;
  for (let i = 0; parts[i] === "charts" && parts[i + 1] !== undefined; i += 2) {
    const sub = posix.join(chart, "charts", parts[i + 1]!);
    if (!(await exists(join(repoDir, sub, "Chart.yaml")))) break;
    chart = sub;
  }
  return posix.join(chart, "Chart.yaml");
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
