// The files the status page loads, served by the app itself under
// /status/assets/ (no CDN): uPlot from its npm package, and the page's own
// script and stylesheet from static/status/ (shipped in the npm package beside dist/).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// src/server/status/ and dist/server/status/ both sit three folders below the package root.
const own = (name: string) => fileURLToPath(new URL(`../../../static/status/${name}`, import.meta.url));

const FILES: Record<string, { path: () => string; type: string }> = {
  "uPlot.iife.min.js": { path: () => require.resolve("uplot/dist/uPlot.iife.min.js"), type: "text/javascript" },
  "uPlot.min.css": { path: () => require.resolve("uplot/dist/uPlot.min.css"), type: "text/css" },
  "status.js": { path: () => own("status.js"), type: "text/javascript" },
  "status.css": { path: () => own("status.css"), type: "text/css" },
};

/** The asset called `name` (a fixed list: no path from a request reaches the file system), or undefined. */
export async function statusAsset(name: string): Promise<{ body: Buffer; type: string } | undefined> {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return undefined;
  return { body: await readFile(file.path()), type: `${file.type}; charset=utf-8` };
}
