// Worker threads start from a file URL, which the TypeScript compiler leaves as written
// (it rewrites import specifiers only): `./x.ts` would name a file that dist/ does not have.

/** The URL of module `name` (spelled `./x.ts`) beside `from`, with `from`'s own extension: .ts in the checkout, .js in dist/. */
export function siblingModule(name: string, from: string): URL {
  const extension = from.endsWith(".ts") ? ".ts" : ".js";
  return new URL(name.replace(/\.ts$/, extension), from);
}
