// jq compiled to WebAssembly (jq-web), loaded once per process. Computing is
// not I/O: the engine takes the loaded instance and stays synchronous.
import { createRequire } from "node:module";
import type { Jq } from "./ignore-rules.ts";

interface JqWeb {
  json(value: unknown, filter: string): unknown;
}

let loaded: Promise<Jq> | undefined;

export function loadJq(): Promise<Jq> {
  loaded ??= (async () => {
    // jq-web is CommonJS whose module.exports is a promise; require() hands it over as it is,
    // where ESM interop (in Node or in a test runner) may wrap it.
    const jq = await (createRequire(import.meta.url)("jq-web") as PromiseLike<JqWeb>);
    return { paths: (value, expression) => jq.json(value, `[path(${expression})]`) as Array<Array<string | number>> };
  })();
  return loaded;
}
