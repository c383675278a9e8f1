// Which targets a command runs on, decided before any cluster is contacted: these
// run with no kubeconfig at all, so a refusal that needed one would fail differently.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noKubeconfigMessage } from "../../../src/live/load-kubeconfig.ts";
import { closedPort } from "../../helpers/cluster.ts";
import { undrift } from "../../helpers/run-cli.ts";

let home: string;
let env: NodeJS.ProcessEnv;
const repos: Record<string, string> = {};

function repo(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "undrift-targets-"));
  mkdirSync(join(dir, ".github"));
  writeFileSync(join(dir, ".github", "undrift.yml"), config);
  for (const path of ["shop", "infra", "edge"]) mkdirSync(join(dir, path));
  return dir;
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "undrift-home-"));
  const { KUBECONFIG: _k, KUBERNETES_SERVICE_HOST: _h, ...rest } = process.env;
  env = { ...rest, HOME: home };
  repos.one = repo("targets:\n  - {name: shop, cluster: prod, path: shop}\n");
  repos.two = repo(
    "targets:\n  - {name: shop, cluster: prod, path: shop}\n  - {name: infra, cluster: prod, path: infra}\n",
  );
  repos.clusters = repo(
    "targets:\n  - {name: shop, cluster: prod-eu, path: shop}\n  - {name: infra, cluster: prod-us, path: infra}\n",
  );
});
afterAll(() => {
  for (const dir of [home, ...Object.values(repos)]) rmSync(dir, { recursive: true, force: true });
});

const refused = (stderr: string) => ({ code: 2, stdout: "", stderr: `${stderr}\n` });

describe("--target, the only target, --all", () => {
  it("uses the only target when --target is left out (it got as far as the kubeconfig)", async () => {
    for (const command of ["scan", "codify", "revert"]) {
      expect(await undrift([command, "--repo", repos.one!], { env }), command).toEqual(refused(noKubeconfigMessage));
    }
  });

  it("with several targets and no --target, names them, and --all where a command takes it", async () => {
    expect(await undrift(["scan", "--repo", repos.two!], { env })).toEqual(
      refused(
        "--target is required: .github/undrift.yml has 2 targets (shop, infra); name one, or --all for every one",
      ),
    );
    expect(await undrift(["revert", "--repo", repos.two!], { env })).toEqual(
      refused("--target is required: .github/undrift.yml has 2 targets (shop, infra); name one"),
    );
  });

  it("scan --all takes every target (it got as far as the kubeconfig); revert and codify have no --all", async () => {
    expect(await undrift(["scan", "--repo", repos.two!, "--all"], { env })).toEqual(refused(noKubeconfigMessage));
    expect(await undrift(["revert", "--repo", repos.two!, "--all"], { env })).toEqual(
      refused("Unknown option '--all'"),
    );
  });

  it("refuses --all over targets of several clusters unless --cluster picks one", async () => {
    expect(await undrift(["scan", "--repo", repos.clusters!, "--all"], { env })).toEqual(
      refused(
        "--all: the targets are bound to clusters prod-eu, prod-us and one kubeconfig reaches one; add --cluster NAME and the --context of that cluster",
      ),
    );
    expect(await undrift(["scan", "--repo", repos.clusters!, "--all", "--cluster", "prod-eu"], { env })).toEqual(
      refused(noKubeconfigMessage),
    );
    expect(await undrift(["scan", "--repo", repos.clusters!, "--all", "--cluster", "prod"], { env })).toEqual(
      refused("--cluster prod: no target of .github/undrift.yml is bound to it (its clusters: prod-eu, prod-us)"),
    );
  });

  it("refuses --target with --all, and --cluster without --all", async () => {
    expect(await undrift(["scan", "--repo", repos.two!, "--all", "--target", "shop"], { env })).toEqual(
      refused("--target and --all exclude each other"),
    );
    expect(await undrift(["scan", "--repo", repos.two!, "--cluster", "prod"], { env })).toEqual(
      refused("--cluster picks the targets of --all and needs it"),
    );
  });

  it("refuses a --color it does not know, naming the choices", async () => {
    expect(await undrift(["scan", "--repo", repos.one!, "--color", "yes"], { env })).toEqual(
      refused('--color: expected one of auto, always, never, got "yes"'),
    );
  });
});

describe("KUBECONFIG naming files that do not exist", () => {
  it("says so in one line naming the file, exit 2, as --kubeconfig does", async () => {
    const missing = join(home, "nope", "config");
    expect(await undrift(["scan", "--repo", repos.one!], { env: { ...env, KUBECONFIG: missing } })).toEqual(
      refused(`kubeconfig ${missing} (from KUBECONFIG): no such file`),
    );
    const other = join(home, "other");
    expect(
      await undrift(["scan", "--repo", repos.one!], { env: { ...env, KUBECONFIG: `${missing}:${other}` } }),
    ).toEqual(refused(`no kubeconfig of ${missing}:${other} (from KUBECONFIG): no such file`));
  });

  it("skips the missing files of the list and reads the one that exists, as kubectl does", async () => {
    const missing = join(home, "nope", "config");
    const present = join(home, "broken-config");
    writeFileSync(present, "apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n");
    // The file read is the one that exists: it has no current cluster, and is named for it.
    const result = await undrift(["scan", "--repo", repos.one!], {
      env: { ...env, KUBECONFIG: `${missing}:${present}` },
    });
    expect(result).toEqual(refused(`${present}: no current cluster`));
  });
});

describe("with REDIS_URL set (a scan that would name who changed what)", () => {
  // A refusal comes before any Redis is needed, so it must not open a connection that keeps
  // the process alive: REDIS_URL points at a closed port, where a client retries for ever.
  it("refuses the same flags and exits, at once", async () => {
    const redisEnv = { ...env, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` };
    const run = (args: string[]) => undrift(args, { env: redisEnv, timeoutMs: 20_000 });
    expect(await run(["scan", "--repo", repos.one!, "--color", "yes"])).toEqual(
      refused('--color: expected one of auto, always, never, got "yes"'),
    );
    expect(await run(["scan", "--repo", repos.two!])).toEqual(
      refused(
        "--target is required: .github/undrift.yml has 2 targets (shop, infra); name one, or --all for every one",
      ),
    );
    expect(await run(["scan", "--repo", repos.one!])).toEqual(refused(noKubeconfigMessage));
  });
});
