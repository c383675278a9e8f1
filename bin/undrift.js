#!/usr/bin/env -S node --max-semi-space-size=4
// The undrift command (also installed as kubectl-undrift, the kubectl plugin).
// An installed package runs the compiled JavaScript of dist/ (Node.js strips no
// types inside node_modules); the repository checkout runs its TypeScript sources
// on the pinned Node.js 24 (node_modules/.bin/node, first on the PATH of npm
// scripts and npx), handing over to it when an older Node starts this file.
// A scan is a short batch job that allocates many short-lived objects: a small
// young generation keeps its peak memory near what it holds (about 130 MB less at
// 5,000 objects, measured by npm run bench) at no cost in time, and a long-running
// worker's heap near what it holds (at 200 targets its RSS peaked at 281 MB with
// the flag, 373 MB without). `node bin/undrift.js` reads no shebang: the image's
// CMD, the chart's commands, `npm start` and the tests' worker process
// (test/helpers/app-worker-process.ts) pass the same flag themselves.
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
// The package ships dist/ and not src/: the sources being here means a checkout.
const checkout = existsSync(fileURLToPath(new URL("../src/cli/main.ts", import.meta.url)));
const handOver = checkout && (major < 22 || (major === 22 && minor < 18));

if (!handOver) {
  // V8's compiled code (and Node's type-stripped sources) cached on disk, as tsc does: start-up
  // parses and strips undrift's few hundred modules once, not on every run. NODE_DISABLE_COMPILE_CACHE=1 opts out.
  const cache = nodeModule.enableCompileCache?.();
  // Worker threads (render, jq) read the directory from the environment when they start.
  if (cache?.directory) process.env.NODE_COMPILE_CACHE ??= cache.directory;
}

if (!checkout) {
  // 22.15 brought module.registerHooks, which loads client-node's KubeConfig without its generated API.
  if (major < 22 || (major === 22 && minor < 15)) {
    console.error(`undrift: needs Node.js 22.15 or later (this is ${process.version})`);
    process.exit(2);
  }
  await import("../dist/cli/main.js");
} else if (handOver) {
  const pinned = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`undrift: needs Node.js 24 (this is ${process.version}); run \`npm ci\` in the undrift folder first`);
    process.exit(2);
  }
  // Only the hand-over starts a process: the others never load child_process.
  const { spawn } = await import("node:child_process");
  // argv[1] as invoked, so a kubectl-undrift link keeps its name.
  const args = ["--max-semi-space-size=4", process.argv[1], ...process.argv.slice(2)];
  const child = spawn(pinned, args, { stdio: "inherit" });
  // The real process is the child: pass stop signals on, so `undrift start` shuts down gracefully.
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 2)));
} else {
  await import("../src/cli/main.ts");
}
