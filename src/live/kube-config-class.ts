// client-node's own KubeConfig class, without loading the rest of client-node.
//
// Its dist/config.js imports the generated API (about 850 modules) and undici (about 110)
// at the top, though KubeConfig needs them only in makeApiClient and for fetch dispatchers,
// which undrift never calls; loading them was most of every command's start-up (about 0.7 s).
// (Its ES import of node:http costs too: see the entry below.)
// A resolve hook hands those few imports of config.js and its auth files stand-ins that load
// the real module on first use, so contexts, exec plugins, OIDC, client certificates,
// in-cluster service accounts and proxies all keep client-node's behaviour, and a process
// that does call makeApiClient (a test) still gets the real thing.
import { createRequire, registerHooks } from "node:module";

type ConfigModule = typeof import("@kubernetes/client-node/dist/config.js");
export type KubeConfigClass = ConfigModule["KubeConfig"];

// File of client-node's dist/ -> import specifier -> the names it imports from it (all functions or
// classes, so a Proxy can stand in; "default" for a built-in's default export). A client-node upgrade
// that imports another name fails to link, loudly.
const standIns: Record<string, Record<string, string[]>> = {
  "config.js": {
    // An ES import of node:http reads its WebSocket getter, which loads Node's bundled undici.
    "node:http": ["default"],
    "./gen/index.js": ["createConfiguration", "ServerConfiguration"],
    undici: ["Agent", "ProxyAgent"],
    "socks-proxy-agent": ["SocksProxyAgent"],
    socks: ["SocksClient"],
    hpagent: ["HttpProxyAgent", "HttpsProxyAgent"],
  },
  "azure_auth.js": { "jsonpath-plus": ["JSONPath"] },
  "gcp_auth.js": { "jsonpath-plus": ["JSONPath"] },
};

// The resolved (real) path: node_modules may be a symlink.
const distUrl = new URL(".", import.meta.resolve("@kubernetes/client-node/dist/config.js")).href;
let KubeConfig: KubeConfigClass | undefined;

/** A module exporting `names` of `specifier` as seen from `parentUrl`, each loaded on first call, `new` or property read. */
function standInSource(specifier: string, parentUrl: string, names: string[]): string {
  if (specifier.startsWith("node:")) return `export default process.getBuiltinModule(${JSON.stringify(specifier)});`;
  // Its own require resolves from a sibling file of the importer, so the hook does not send it back here.
  const from = JSON.stringify(new URL("./undrift-stand-in.js", parentUrl).href);
  return [
    `import { createRequire } from "node:module";`,
    "let real;",
    `const load = () => (real ??= createRequire(${from})(${JSON.stringify(specifier)}));`,
    "const lazy = (name) => new Proxy(function () {}, {",
    "  apply: (_, self, args) => Reflect.apply(load()[name], self, args),",
    "  construct: (_, args) => Reflect.construct(load()[name], args),",
    "  get: (_, key) => Reflect.get(load()[name], key),",
    "});",
    ...names.map((name) => `export const ${name} = lazy(${JSON.stringify(name)});`),
  ].join("\n");
}

/** client-node's KubeConfig class; its heavy imports load only if a caller uses what needs them. */
export function kubeConfigClass(): KubeConfigClass {
  if (KubeConfig) return KubeConfig;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      const names = parent?.startsWith(distUrl) ? standIns[parent.slice(distUrl.length)]?.[specifier] : undefined;
      if (!names || !parent) return nextResolve(specifier, context);
      const source = standInSource(specifier, parent, names);
      return { url: `data:text/javascript,${encodeURIComponent(source)}`, shortCircuit: true };
    },
  });
  // require() of an ES module (Node >= 22.12) keeps loadKubeconfig synchronous, as it was.
  const config = createRequire(import.meta.url)("@kubernetes/client-node/dist/config.js") as ConfigModule;
  KubeConfig = config.KubeConfig;
  return KubeConfig;
}
