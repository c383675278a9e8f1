// Aliases that would see an edit of their anchor: an edit under an anchored
// node must change only its own path, so each alias of that anchor first gets
// its own copy of the value (the anchor stays for the node that has it).
import { type Alias, type Document, isPair, isSeq, type Node, visit, type YAMLMap } from "yaml";
import type { Located, Step } from "./locate-path.ts";

type Json = unknown;

/**
 * An alias elsewhere in the document that refers to an anchor on the edited path: editing the anchored
 * node would change it too, so it first gets its own copy of the value (the anchor stays).
 */
export function sharedAlias(doc: Document.Parsed, located: Located): { step: Step; value: Json } | undefined {
  const anchors = new Set<string>();
  const nodes = [doc.contents as Node | null, ...located.steps.map((s) => s.node), located.reached];
  for (const node of nodes) if (node && "anchor" in node && typeof node.anchor === "string") anchors.add(node.anchor);
  if (anchors.size === 0) return undefined;
  let found: { step: Step; value: Json } | undefined;
  visit(doc, {
    Alias(key, alias, ancestors) {
      if (!anchors.has(alias.source)) return undefined;
      const parent = ancestors.at(-1);
      let step: Step | undefined;
      if (isPair(parent)) {
        const map = ancestors.at(-2) as YAMLMap;
        if (key !== "value") return undefined;
        step = { parent: map, index: map.items.indexOf(parent as never), pair: parent, node: alias };
      } else if (isSeq(parent) && typeof key === "number") step = { parent, index: key, node: alias };
      if (!step) return undefined;
      found = { step, value: resolved(doc, alias) };
      return visit.BREAK;
    },
  });
  return found;
}

function resolved(doc: Document.Parsed, alias: Alias): Json {
  const target = alias.resolve(doc);
  return target ? target.toJS(doc, { maxAliasCount: 100 }) : null;
}
