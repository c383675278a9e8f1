// jq compiled to WebAssembly (jq-web), loaded once per process. Computing is
// not I/O: the engine takes the loaded instance and stays synchronous.
import type { Jq } from "./ignore-rules.ts";

let loaded: Promise<Jq> | undefined;

export function loadJq(): Promise<Jq> {
  loaded ??= (async () => {
    const jq = (await (await import("jq-web")).default) as JqWeb;
    return { paths: (value, expression) => jq.json(value, `[path(${expression})]`) as Array<Array<string | number>> };
  })();
  return loaded;
}

interface JqWeb {
  json(value: unknown, filter: string): unknown;
}
