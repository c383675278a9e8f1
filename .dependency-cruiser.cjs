// The architecture's import rules (README "Architecture"), checked by `npm test`.
// Folders under src/ form layers along the flow; a folder may import only the
// folders before it in this list, so data flows one way and no two folders
// import each other, directly or through others.
const layers = [
  "model", // object identity, one subject spelling, the change-set vocabulary
  "config", // schemas and loaders
  "desired", // Git rendered to objects with their source
  "live", // cluster client, discovery, LIST/GET/apply/delete, sessions
  "discover", // targets read from the reconcilers' objects (Flux Kustomizations), merged with the configured ones
  "drift", // the pure engine
  "plan", // pure decisions: prune, revert, mode shares, approved drift
  "remediate", // executors: YAML edits, apply, prune, health
  "report", // every renderer
  "metrics", // Prometheus series, /healthz and /readyz: counts recorded from the worker, served by web and worker
  "stages", // scan, preview, codify, revert: shared by the CLI and the worker
  "github", // every GitHub call
  "queue", // queues, schedulers, job schemas, job errors
  "state", // Redis stores
  "modes", // one folder per mode (warn, codify, revert, heal): plan and act, one handler shape
  "worker", // job pipelines
  "schedules", // a repository's config made into its scan schedulers: on install, a config push, an uninstall
  "app", // webhook handlers
  "server", // the HTTP surfaces besides webhooks (status page, audit and recorder, setup) and the process roots
  "cli", // the command and the process entry points
];

// What a pure folder must never reach: files, processes, the network, Redis, the cluster, GitHub.
const io = [
  "^node:(fs|fs/promises|child_process|net|http|https|tls|dgram|dns|worker_threads)$",
  "^(fs|child_process|net|http|https)$",
  "^@kubernetes/client-node",
  "^ioredis",
  "^bullmq",
  "^octokit",
  "^@octokit/",
  "^probot",
];

const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `${layer}/ imports only ${layers.slice(0, index).join(", ") || "no other folder"} (the layers before it)`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${layers.slice(index + 1).join("|")})/` },
}));

// What the GitHub App's server needs and a CLI run against a cluster must never load (start-up time).
const serverOnly = [
  "^src/(app|queue|state|modes|worker|schedules|server)/",
  "(^|/)node_modules/(probot|bullmq|ioredis|octokit|@octokit/[^/]+)/",
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no module imports itself through others",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "pure-core",
      comment: "model/, drift/ and plan/ take data and return data: no I/O",
      severity: "error",
      from: { path: "^src/(model|drift|plan)/" },
      to: { path: io, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "known-folders",
      comment: "every source file lives in one of the layers",
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${layers.join("|")})/` },
      to: {},
    },
    {
      name: "cli-stays-light",
      comment: "scan, codify, revert and preview never reach the server's folders or packages, even lazily",
      severity: "error",
      from: { path: "^src/cli/(scan|codify|revert|preview)-command\\.ts$" },
      to: { path: serverOnly, reachable: true },
    },
    {
      name: "cli-scan-without-github",
      comment: "scan, codify and revert never reach GitHub code (preview reads a tarball with src/github/read-tar)",
      severity: "error",
      from: { path: "^src/cli/(scan|codify|revert)-command\\.ts$" },
      to: { path: "^src/github/", reachable: true },
    },
    {
      name: "octokit-in-github-only",
      comment:
        "only github/ imports Octokit (a client, OAuthApp), since GitHub is called there; calls on a client passed in are test/unit/layout/github-requests.test.ts's to find",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/github/" },
      to: { path: ["^(octokit|@octokit/)", "(^|/)node_modules/(octokit|@octokit/[^/]+)/"] },
    },
    {
      name: "not-to-tests",
      comment: "src/ never imports the tests or their helpers",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench|scripts)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^(node_modules|dist)/" },
  },
};
