// Helm prints a template's documents sorted by kind (install order), not in
// the order the template file declares them, and a Go template cannot be
// parsed as YAML. The literal `kind:` line of each `---` section is usually
// there, though, and maps a rendered document back to its place in the file.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The document index of the next rendered document of `file`: the n-th document of a kind is the template's n-th
 * section with that literal `kind:`; failing that, its position among the documents helm printed for that file.
 */
export function helmDocumentIndex(repoDir: string): (file: string, kind: unknown) => Promise<number> {
  const printed = new Map<string, number>();
  const ofKind = new Map<string, number>();
  const kinds = new Map<string, Promise<(string | undefined)[]>>();
  return async (file: string, kind: unknown): Promise<number> => {
    const position = printed.get(file) ?? 0;
    printed.set(file, position + 1);
    const nth = ofKind.get(`${file}\0${kind}`) ?? 0;
    ofKind.set(`${file}\0${kind}`, nth + 1);
    let literal = kinds.get(file);
    if (!literal) {
      // A file that cannot be read (a subchart packed as .tgz maps to a Chart.yaml) keeps the printed order.
      literal = readFile(join(repoDir, file), "utf8").then(templateKinds, () => []);
      kinds.set(file, literal);
    }
    const sections = (await literal).flatMap((k, i) => (k === kind ? [i] : []));
    return sections[nth] ?? position;
  };
}

/** The literal top-level `kind:` of each document of a template file, by document index (undefined when templated). */
function templateKinds(text: string): (string | undefined)[] {
  const sections = text.split(/^---[ \t]*(?:#.*)?$/m);
  // Like the YAML parser, text before the first `---` is a document only when it holds more than comments.
  if (sections.length > 1 && isOnlyComments(sections[0]!)) sections.shift();
  return sections.map((section) => /^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(?:#.*)?$/m.exec(section)?.[1]);
}

function isOnlyComments(section: string): boolean {
  return section.split("\n").every((line) => line.trim() === "" || line.trim().startsWith("#"));
}
