#!/usr/bin/env node
// The undrift command. The project pins Node.js 24 (node_modules/.bin/node, first
// on the PATH of npm scripts and npx); when an older Node starts this file
// directly, hand over to the pinned one instead of failing on TypeScript sources.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const pinned = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`undrift: needs Node.js 24 (this is ${process.version}); run \`npm ci\` in the undrift folder first`);
    process.exit(2);
  }
  const result = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(result.status ?? 2);
}
await import("../src/cli/main.ts");
