// Preloaded with `node --import`: appends the URL of every module the process (and each of
// its worker threads, which inherit --import) loads to $UNDRIFT_RECORD_LOADS, one a line.
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
}
