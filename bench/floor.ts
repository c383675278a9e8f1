// The floor of a scan: what any scan must do at least, on undrift's own code
// path minus the comparison. Reads the config, renders the target (parses the
// YAML), discovers the kinds, and LISTs the kinds Git declares (paged, 500 a
// page, by the tracking selector). Run as its own process by scan.bench.ts:
//
//   node bench/floor.ts --repo DIR --target NAME --kubeconfig FILE
//
// Prints one JSON line: objects rendered, live objects listed, requests sent.
import { parseArgs } from "node:util";
import { readRepoConfig } from "../src/config/load-config.ts";
import { renderTarget } from "../src/desired/render-target.ts";
import { discover } from "../src/live/discovery.ts";
import { KubeClient } from "../src/live/kube-client.ts";
import { listObjects } from "../src/live/list-objects.ts";
import { loadKubeconfig } from "../src/live/load-kubeconfig.ts";

const { values } = parseArgs({
  options: { repo: { type: "string" }, target: { type: "string" }, kubeconfig: { type: "string" } },
});
if (!values.repo || !values.target) {
  console.error("usage: node bench/floor.ts --repo DIR --target NAME [--kubeconfig FILE]");
  process.exit(2);
}
const started = performance.now();
const config = await readRepoConfig(values.repo);
const target = config.targets.find((t) => t.name === values.target);
if (!target) {
  console.error(`target ${values.target} is not in ${values.repo}/.github/undrift.yml`);
  process.exit(2);
}
const client = new KubeClient(loadKubeconfig({ kubeconfig: values.kubeconfig }));
const [rendered, index] = await Promise.all([renderTarget({ repoDir: values.repo, target }), discover(client)]);

// The kinds Git declares, each LISTed once across namespaces, all at once.
const kinds = new Map<string, NonNullable<ReturnType<typeof index.find>>>();
for (const { object } of rendered.objects) {
  const resource = index.find(object.apiVersion, object.kind);
  if (resource) kinds.set(`${resource.group}/${resource.kind}`, resource);
}
const lists = await Promise.all(
  [...kinds.values()].map((resource) => listObjects({ client, resource, labelSelector: target.tracking.selector })),
);
console.log(
  JSON.stringify({
    objects: rendered.objects.length,
    live: lists.reduce((sum, l) => sum + l.length, 0),
    kinds: kinds.size,
    requests: client.requests,
    durationMs: Math.round(performance.now() - started),
  }),
);
