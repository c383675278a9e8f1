// Every command's flags, once: parseArgs reads them and `undrift <command> --help`
// prints them, so the help cannot list a flag the parser refuses or miss one it takes.
// Kept free of imports beyond types: main.ts reads it before loading any command.
import type { ParseArgsOptionDescriptor } from "node:util";

/** A parseArgs option with what help says of it; parseArgs ignores the extra fields. */
export type Flag = ParseArgsOptionDescriptor & {
  description: string;
  /** The placeholder after a string flag in help (`--repo DIR`). */
  value?: string;
  /** Shown in the usage line as required; the command itself checks and says why. */
  required?: true;
  /** When a required flag may be left out, said in help: `(required unless ...)`. */
  unless?: string;
  /** The values a string flag takes, for help and shell completion. */
  choices?: readonly string[];
};

export interface CommandSpec {
  summary: string;
  flags: Record<string, Flag>;
  examples: readonly string[];
  /** The positional argument a command takes, as help shows it (`bash|zsh`); none when absent. */
  positional?: string;
  /** What the exit codes mean for this command; servers run until stopped and have none to tell. */
  exitCodes?: string;
}

export const colorChoices = ["auto", "always", "never"] as const;

/** The --color flag of every command with text output. */
export const colorFlag = {
  type: "string",
  default: "auto",
  value: colorChoices.join("|"),
  choices: colorChoices,
  description: "colour the text output (auto: on a terminal or with FORCE_COLOR, never with NO_COLOR)",
} as const satisfies Flag;

/** --all and --cluster of the read-only per-target commands (scan, preview). */
export const allFlags = {
  all: { type: "boolean", default: false, description: "every target of .github/undrift.yml, one summary line each" },
  cluster: {
    type: "string",
    value: "NAME",
    description: "with --all: only the targets bound to this cluster name (the one --kubeconfig/--context reaches)",
  },
} as const satisfies Record<string, Flag>;

/** The flags every per-target command shares, with that command's --output choices. */
function targetFlags<O extends string>(outputs: readonly O[], unless: string) {
  return {
    repo: { type: "string", value: "DIR", required: true, description: "the working tree of the GitOps repository" },
    target: {
      type: "string",
      value: "NAME",
      required: true,
      unless,
      description: "a target name from .github/undrift.yml",
    },
    kubeconfig: {
      type: "string",
      value: "FILE",
      description: "the kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config, else the pod's service account)",
    },
    context: { type: "string", value: "NAME", description: "the kubeconfig context (default: its current context)" },
    output: {
      type: "string",
      short: "o",
      default: "text",
      value: outputs.join("|"),
      choices: outputs,
      description: "the format",
    },
    color: colorFlag,
  } as const satisfies Record<string, Flag>;
}

const withAll = "the config has one target, or with --all";
const withOne = "the config has one target";

export const scanOutputs = ["text", "json", "markdown"] as const;
export const scan = {
  summary: "compare the target's manifests in Git with its live cluster; exit 1 when they differ",
  flags: { ...targetFlags(scanOutputs, withAll), ...allFlags },
  examples: [
    "undrift scan --repo . --target infra",
    "undrift scan --repo . --target infra --context prod -o json",
    "undrift scan --repo . --all --cluster prod-eu --context prod-eu",
  ],
  exitCodes: "0 in sync, 1 drift found, 2 error",
} as const satisfies CommandSpec;

export const codifyOutputs = ["text", "json"] as const;
export const codify = {
  summary: "edit the files under DIR so Git matches the cluster",
  flags: {
    ...targetFlags(codifyOutputs, withOne),
    "dry-run": { type: "boolean", default: false, description: "print the edits as a diff and write nothing" },
    "allow-dirty": {
      type: "boolean",
      default: false,
      description: "edit even when the target's folder has uncommitted or untracked files",
    },
  },
  examples: ["undrift codify --repo . --target infra --dry-run", "undrift codify --repo . --target infra"],
  exitCodes: "0 nothing left to codify, 1 something not codified, 2 error",
} as const satisfies CommandSpec;

export const revertOutputs = ["text", "json"] as const;
export const revert = {
  summary: "apply Git to the cluster (server-side apply); with --prune, delete what Git no longer declares",
  flags: {
    ...targetFlags(revertOutputs, withOne),
    prune: { type: "boolean", default: false, description: "also delete labelled objects Git no longer declares" },
    "force-prune": { type: "boolean", default: false, description: "lift the prune guards (needs --prune)" },
    propagation: {
      type: "string",
      default: "background",
      value: "MODE",
      choices: ["background", "foreground", "orphan"],
      description: "how a prune deletes dependents: background, foreground or orphan",
    },
    wait: { type: "boolean", default: false, description: "wait until every applied object is healthy" },
    "no-wait": { type: "boolean", default: false, description: "wait for nothing, not even CRDs and namespaces" },
    "dry-run": { type: "boolean", default: false, description: "ask the API server what would change; change nothing" },
  },
  examples: ["undrift revert --repo . --target infra --dry-run", "undrift revert --repo . --target infra --prune"],
  exitCodes: "0 everything asked for was done, 1 an object was skipped, refused or failed, 2 error",
} as const satisfies CommandSpec;

export const previewOutputs = ["text", "json", "markdown"] as const;
export const preview = {
  summary: "what merging head into base would change in the target's cluster, and prune",
  flags: {
    ...targetFlags(previewOutputs, withAll),
    ...allFlags,
    base: { type: "string", value: "REF", required: true, description: "the commit the change merges into" },
    head: { type: "string", value: "REF", required: true, description: "the commit with the change" },
  },
  examples: [
    "undrift preview --repo . --base main --head HEAD --target infra",
    "undrift preview --repo . --base origin/main --head HEAD --all",
  ],
  exitCodes:
    "0 merging changes nothing, 1 it creates, changes, prunes or orphans something, 2 head does not render or error",
} as const satisfies CommandSpec;

export const auditOutputs = ["text", "json"] as const;
export const audit = {
  summary: "the audit trail from Redis (REDIS_URL), oldest first",
  flags: {
    output: {
      type: "string",
      short: "o",
      default: "text",
      value: auditOutputs.join("|"),
      choices: auditOutputs,
      description: "the format (json: one array of records)",
    },
    repo: { type: "string", value: "OWNER/NAME", description: "only this repository's records" },
    since: { type: "string", value: "24h|2026-11-30", description: "only records since this long ago or this date" },
    limit: { type: "string", default: "1000", value: "N", description: "at most N records" },
  },
  examples: [
    "undrift audit --since 24h",
    "undrift audit --repo acme/gitops --limit 50",
    "undrift audit --since 2026-11-30 -o json",
  ],
  exitCodes: "0 printed, 2 error",
} as const satisfies CommandSpec;

export const attributionActions = ["install", "uninstall"] as const;
export const attribution = {
  summary: "install (or uninstall) the admission recorder's webhook in a cluster, so undrift names who changed what",
  positional: attributionActions.join("|"),
  flags: {
    cluster: {
      type: "string",
      value: "NAME",
      required: true,
      description: "the cluster's name in the registry (the records are kept under it)",
    },
    url: {
      type: "string",
      value: "URL",
      description:
        "install: where the API server reaches undrift's recorder, https://host:port (default: UNDRIFT_RECORDER_URL)",
    },
    "ca-file": {
      type: "string",
      value: "FILE",
      description: "install: the CA (PEM) that signed the recorder's serving certificate",
    },
    selector: {
      type: "string",
      value: "SELECTOR",
      default: "undrift.dev/target",
      description: "only objects with these labels are sent (the targets' tracking selector)",
    },
    timeout: {
      type: "string",
      value: "SECONDS",
      default: "2",
      description: "install: the API server's wait, 1 to 5 s",
    },
    kubeconfig: { type: "string", value: "FILE", description: "the kubeconfig (default: KUBECONFIG, ~/.kube/config)" },
    context: { type: "string", value: "NAME", description: "the kubeconfig context" },
    "dry-run": { type: "boolean", default: false, description: "print the configuration as YAML, change nothing" },
  },
  examples: [
    "undrift attribution install --cluster prod-eu --url https://undrift.example.com:8443 --ca-file ca.crt",
    "undrift attribution install --cluster prod-eu --url https://undrift.example.com:8443 --ca-file ca.crt --dry-run",
    "undrift attribution uninstall --cluster prod-eu",
  ],
  exitCodes: "0 done, 2 error",
} as const satisfies CommandSpec;

export const validateOutputs = ["text", "json"] as const;
export const validate = {
  summary: "check .github/undrift.yml and render every target (or one) without a cluster, for CI",
  flags: {
    repo: { type: "string", value: "DIR", required: true, description: "the working tree of the GitOps repository" },
    target: { type: "string", value: "NAME", description: "only this target (default: every target)" },
    output: {
      type: "string",
      short: "o",
      default: "text",
      value: validateOutputs.join("|"),
      choices: validateOutputs,
      description: "the format",
    },
  },
  examples: ["undrift validate --repo .", "undrift validate --repo . --target infra -o json"],
  exitCodes: "0 the config and every render are valid, 2 an error (one line each: file:line: field: why)",
} as const satisfies CommandSpec;

export const targetsOutputs = ["text", "json"] as const;
export const targets = {
  summary: "list every target: the config's and, with discover:, those the cluster's Flux objects name",
  flags: {
    repo: { type: "string", value: "DIR", required: true, description: "the working tree of the GitOps repository" },
    cluster: {
      type: "string",
      value: "NAME",
      description: "only the targets bound to this cluster name (the one --kubeconfig/--context reaches)",
    },
    kubeconfig: {
      type: "string",
      value: "FILE",
      description: "the kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config, else the pod's service account)",
    },
    context: { type: "string", value: "NAME", description: "the kubeconfig context (default: its current context)" },
    output: {
      type: "string",
      short: "o",
      default: "text",
      value: targetsOutputs.join("|"),
      choices: targetsOutputs,
      description: "the format",
    },
  },
  examples: ["undrift targets --repo .", "undrift targets --repo . --cluster prod-eu -o json"],
  exitCodes: "0 listed (what could not be discovered is said on stderr, one line each), 2 an error",
} as const satisfies CommandSpec;

export const completionShells = ["bash", "zsh"] as const;
export const completion = {
  summary: "print a shell completion script (bash or zsh), made from these flag tables",
  flags: {},
  positional: completionShells.join("|"),
  examples: [
    "undrift completion bash > ~/.local/share/bash-completion/completions/undrift",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, printed as it is.
    'undrift completion zsh > "${fpath[1]}/_undrift"   # then: autoload -U compinit && compinit',
    "source <(undrift completion bash)   # this shell only",
  ],
  exitCodes: "0 printed, 2 an unknown shell",
} as const satisfies CommandSpec;

export const web = {
  summary: "the webhook receiver alone (the setup page without APP_ID)",
  flags: {},
  examples: ["undrift web"],
} as const satisfies CommandSpec;

export const worker = {
  summary: "scan workers for the clusters named (needs APP_ID, PRIVATE_KEY and UNDRIFT_CLUSTERS)",
  flags: {
    clusters: {
      type: "string",
      value: "a,b",
      description: "only these clusters of the registry (default: all in UNDRIFT_CLUSTERS)",
    },
  },
  examples: ["undrift worker", "undrift worker --clusters prod-eu,prod-us"],
} as const satisfies CommandSpec;

export const start = {
  summary: "the web receiver and the workers of every cluster in one process (npm start)",
  flags: {},
  examples: ["undrift start"],
} as const satisfies CommandSpec;

export const commandSpecs: Record<string, CommandSpec> = {
  scan,
  codify,
  revert,
  preview,
  validate,
  targets,
  audit,
  attribution,
  completion,
  web,
  worker,
  start,
};
