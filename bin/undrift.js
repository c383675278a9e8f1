#!/usr/bin/env -S node --max-semi-space-size=4
// The undrift command. The project pins Node.js 24 (node_modules/.bin/node, first
// on the PATH of npm scripts and npx); when an older Node starts this file
// directly, hand over to the pinned one instead of failing on TypeScript sources.
// A scan is a short batch job that allocates many short-lived objects: a small
// young generation keeps its peak memory near what it holds (about 130 MB less at
// 5,000 objects, measured by npm run bench) at no cost in time.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const pinned = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`undrift: needs Node.js 24 (this is ${process.version}); run \`npm ci\` in the undrift folder first`);
    process.exit(2);
  }
  const args = ["--max-semi-space-size=4", fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawn(pinned, args, { stdio: "inherit" });
  // The real process is the child: pass stop signals on, so `undrift start` shuts down gracefully.
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 2)));
  await new Promise(() => {});
}
// V8's compiled code (and Node's type-stripped sources) cached on disk, as tsc does: start-up
// parses and strips undrift's few hundred modules once, not on every run. NODE_DISABLE_COMPILE_CACHE=1 opts out.
const cache = nodeModule.enableCompileCache?.();
// Worker threads (render, jq) read the directory from the environment when they start.
if (cache?.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;
await import("../src/cli/main.ts");
