// Preloaded with `node --import`: appends the URL of every module the process (and each of
// its worker threads, which inherit --import) loads to $UNDRIFT_RECORD_LOADS, one a line,
// and at exit Node's own internal modules as `node-internal:<name>` (process.moduleLoadList).
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.UNDRIFT_RECORD_LOADS;
if (file) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
  const { moduleLoadList } = process as unknown as { moduleLoadList: string[] };
  process.on("exit", () => {
    const internal = moduleLoadList.filter((entry) => entry.startsWith("NativeModule "));
    appendFileSync(file, internal.map((entry) => `node-internal:${entry.slice("NativeModule ".length)}\n`).join(""));
  });
}
