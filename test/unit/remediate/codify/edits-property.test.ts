// Property: whatever drift the cluster shows (changed scalars, keys added and
// removed, list items added, removed and reordered, env vars added), the edits
// codify derives, applied to the commented fixture, make the YAML read back as
// the live object (the engine's comparison finds nothing left), and every
// full-line comment of the original is still there, in order.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { diffValues } from "../../../../src/drift/diff-values.ts";
import { ListShapes } from "../../../../src/drift/list-shapes.ts";
import type { Change, KubeObject } from "../../../../src/model/types.ts";
import { driftEdits } from "../../../../src/remediate/codify/drift-edits.ts";
import { setYamlValue } from "../../../../src/remediate/codify/yaml/set-yaml-value.ts";

const file = "property.input.yaml";
const original = readFileSync(join(import.meta.dirname, "../../../fixtures/codify", file), "utf8");
const docs = () => parseAllDocuments(original).map((d) => d.toJS() as KubeObject);

const context = {
  shapes: new ListShapes({ ownership: [], builtin: true }),
  sameScalar: (_: string[], a: unknown, b: unknown) => a === b,
};
/** The changes the engine reports between a live object and Git (live first, as compareObject diffs). */
const changesOf = (live: unknown, desired: unknown): Change[] =>
  diffValues(live, desired, context).map((d) => ({
    path: d.pointer,
    ...(d.a === undefined ? {} : { live: d.a }),
    ...(d.b === undefined ? {} : { desired: d.b }),
  }));

const text = fc.oneof(
  fc.constantFrom(
    "debug",
    "true",
    "0755",
    "a: b",
    "it's",
    "x # y",
    "two\nlines\n",
    " lead",
    "null",
    "~",
    "1.5",
    "yes",
    "-",
  ),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ unit: "binary-ascii", maxLength: 8 }),
);
const key = fc.constantFrom("new", "app.kubernetes.io/part-of", "with space", "true", "1", "x: y", "#hash", "team");
interface Container {
  name: string;
  image?: string;
  args?: string[];
  ports?: Array<{ containerPort: number; name?: string }>;
  env?: Array<{ name: string; value?: string }>;
}
interface Deployment {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { replicas: number; template: { spec: { containers: Container[] } } };
}
interface ConfigMap {
  data: Record<string, string>;
}
/** One piece of drift, made on the live Deployment and ConfigMap. */
type Op = (d: Deployment, c: ConfigMap) => void;

const web = (d: Deployment) => d.spec.template.spec.containers.find((c) => c.name === "web")!;
const pickKey = (map: Record<string, unknown> | undefined, n: number) => {
  const keys = Object.keys(map ?? {});
  return keys[n % Math.max(1, keys.length)] ?? "";
};
const removeAt = (list: unknown[] | undefined, n: number) => {
  if (list && list.length > 0) list.splice(n % list.length, 1);
};

const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.integer({ min: 0, max: 50 }).map(
    (n): Op =>
      (d) => {
        d.spec.replicas = n;
      },
  ),
  text.map(
    (v): Op =>
      (d) => {
        web(d).image = v;
      },
  ),
  fc.tuple(key, text).map(
    ([k, v]): Op =>
      (_, c) => {
        c.data[k] = v;
      },
  ),
  fc.nat().map(
    (n): Op =>
      (_, c) => {
        delete c.data[pickKey(c.data, n)];
      },
  ),
  fc.tuple(key, text).map(
    ([k, v]): Op =>
      (d) => {
        d.metadata.labels[k] = v;
      },
  ),
  fc.nat().map(
    (n): Op =>
      (d) => {
        delete d.metadata.labels[pickKey(d.metadata.labels, n)];
      },
  ),
  fc.tuple(key, text).map(
    ([k, v]): Op =>
      (d) => {
        d.metadata.annotations ??= {};
        d.metadata.annotations[k] = v;
      },
  ),
  fc.nat().map(
    (n): Op =>
      (d) => {
        if (d.metadata.annotations) delete d.metadata.annotations[pickKey(d.metadata.annotations, n)];
      },
  ),
  fc.tuple(fc.constantFrom("DEBUG", "TRACE", "EXTRA"), text).map(
    ([name, value]): Op =>
      (d) => {
        const container = web(d);
        container.env ??= [];
        if (!container.env.some((e) => e.name === name)) container.env.push({ name, value });
      },
  ),
  fc.nat().map(
    (n): Op =>
      (d) =>
        removeAt(web(d).env, n),
  ),
  fc.tuple(fc.nat(), text).map(
    ([n, v]): Op =>
      (d) => {
        const env = web(d).env ?? [];
        const item = env[n % Math.max(1, env.length)];
        if (item) item.value = v;
      },
  ),
  fc.nat().map(
    (n): Op =>
      (d) => {
        // Reordered by key: the same env vars in another order, which is no drift.
        const env = web(d).env ?? [];
        if (env.length > 1) env.push(...env.splice(0, (n % (env.length - 1)) + 1));
      },
  ),
  fc.integer({ min: 1, max: 65535 }).map(
    (port): Op =>
      (d) => {
        const container = web(d);
        container.ports ??= [];
        if (!container.ports.some((p) => p.containerPort === port)) container.ports.push({ containerPort: port });
      },
  ),
  fc.nat().map(
    (n): Op =>
      (d) =>
        removeAt(web(d).ports, n),
  ),
  fc.array(fc.constantFrom("--a", "--b", "--c", "--d", "8080"), { maxLength: 5 }).map(
    (args): Op =>
      (d) => {
        // An atomic list: reordered, grown or shrunk as a whole.
        if (args.length > 0) web(d).args = args;
        else delete web(d).args;
      },
  ),
  fc.constantFrom("istio-proxy", "logger").map(
    (name): Op =>
      (d) => {
        const containers = d.spec.template.spec.containers;
        if (!containers.some((c) => c.name === name)) containers.push({ name, image: `${name}:1` });
      },
  ),
  fc.constant<Op>((d) => {
    const containers = d.spec.template.spec.containers;
    const index = containers.findIndex((c) => c.name === "sidecar");
    if (index >= 0) containers.splice(index, 1);
  }),
);

/** Lines that are only a comment, in order. */
const commentLines = (t: string) =>
  t
    .split("\n")
    .filter((line) => line.trim().startsWith("#"))
    .map((l) => l.trim());
const isSubsequence = (small: string[], big: string[]) => {
  let at = 0;
  for (const line of big) if (line === small[at]) at++;
  return at === small.length;
};

describe("codify YAML edits: property", () => {
  it("random drift, once codified, leaves no drift and every comment line", () => {
    fc.assert(
      fc.property(fc.array(ops, { minLength: 1, maxLength: 8 }), (drift) => {
        const desired = docs();
        const live = docs();
        for (const op of drift) op(live[0] as unknown as Deployment, live[1] as unknown as ConfigMap);
        let edited = original;
        for (const [document, object] of live.entries()) {
          const changes = changesOf(object, desired[document]);
          const { edits, unresolved } = driftEdits({
            desired: desired[document]!,
            live: object,
            changes,
            group: "apps",
          });
          expect(unresolved).toEqual([]);
          for (const edit of edits)
            edited = setYamlValue({ file, text: edited, document, path: edit.path, value: edit.value });
        }
        const after = parseAllDocuments(edited).map((d) => d.toJS() as KubeObject);
        expect(after).toHaveLength(live.length);
        for (const [i, object] of after.entries()) expect(changesOf(live[i], object)).toEqual([]);
        expect(isSubsequence(commentLines(original), commentLines(edited))).toBe(true);
      }),
      // CODIFY_PROPERTY_RUNS=5000 for a longer hunt.
      { numRuns: Number(process.env.CODIFY_PROPERTY_RUNS ?? 300) },
    );
  }, 120_000);
});
