// npm run demo: undrift at work without GitHub, in a few minutes on a fresh machine.
// It starts the loopback test cluster, applies the example GitOps repository in
// examples/gitops, makes drift with kubectl the way people do, then shows what
// undrift scan finds, the edit undrift codify proposes, and what undrift revert
// --prune would do. Nothing outside the test cluster and a temp folder is touched.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { styleText } from "node:util";
import { up } from "./cluster/cluster.ts";

const root = resolve(import.meta.dirname, "..");
const limits = `apiVersion: v1
kind: ConfigMap
metadata:
  name: rate-limits
  namespace: shop
data:
  RATE_LIMIT: "100"
`;
const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const heading = (text: string) => console.log(`\n${color ? styleText("bold", `== ${text}`) : `== ${text}`}\n`);

heading("1. The test cluster (built from Go modules on first run, then cached)");
const { kubeconfig } = await up();
console.log(`KUBECONFIG=${kubeconfig}`);

heading("2. A GitOps repository: examples/gitops, committed in a temporary folder");
const repo = mkdtempSync(join(tmpdir(), "undrift-demo-"));
cpSync(join(root, "examples/gitops"), repo, { recursive: true });
const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "ignore" });
git("init", "-q");
git("-c", "user.name=demo", "-c", "user.email=demo@undrift.dev", "add", ".");
git("-c", "user.name=demo", "-c", "user.email=demo@undrift.dev", "commit", "-qm", "GitOps repository");
git("branch", "-M", "main");
console.log(repo);

const env = { ...process.env, KUBECONFIG: kubeconfig };
function undrift(...args: string[]): number {
  console.log(color ? styleText("cyan", `$ undrift ${args.join(" ")}`) : `$ undrift ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [join(root, "bin/undrift.js"), ...args, "--repo", repo], {
    stdio: "inherit",
    env,
  });
  return result.status ?? 2;
}
function kubectl(...args: string[]): void {
  console.log(color ? styleText("cyan", `$ kubectl ${args.join(" ")}`) : `$ kubectl ${args.join(" ")}`);
  const result = spawnSync("kubectl", args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`kubectl ${args.join(" ")} failed`);
}

try {
  heading(
    "3. Git applied to the cluster (undrift revert applies Git and, with --wait, waits for the rollouts; --prune removes earlier demo leftovers)",
  );
  for (const target of ["shop", "platform"]) {
    if (undrift("revert", "--target", target, "--prune", "--wait") === 2) throw new Error(`revert of ${target} failed`);
  }

  heading("4. Drift, made by hand with kubectl");
  kubectl("-n", "shop", "scale", "deployment/web", "--replicas=5");
  kubectl("-n", "shop", "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}');
  kubectl("-n", "shop", "set", "env", "deployment/web", "DEBUG=1");
  kubectl("-n", "shop", "delete", "service", "web");
  kubectl("-n", "shop", "create", "configmap", "hotfix", "--from-literal=RATE_LIMIT=50");
  kubectl("-n", "shop", "label", "configmap", "hotfix", "undrift.dev/target=shop");
  kubectl("-n", "platform", "set", "image", "deployment/gateway", "gateway=envoyproxy/envoy:v1.33.0");

  heading("5. undrift scan: what drifted, who changed it, when");
  undrift("scan", "--target", "shop");
  undrift("scan", "--target", "platform");

  heading("6. undrift codify --dry-run: the edit that makes Git match the cluster (comments kept)");
  undrift("codify", "--target", "shop", "--dry-run");
  undrift("codify", "--target", "platform", "--dry-run");

  heading("7. undrift revert --dry-run --prune: what re-applying Git would do");
  undrift("revert", "--target", "shop", "--dry-run", "--prune");

  heading("8. undrift preview: what merging a pull request would do to the cluster");
  // A branch as a pull request would bring it: one more replica and a new ConfigMap.
  git("checkout", "-q", "-b", "more-replicas");
  const web = join(repo, "apps/shop/web.yaml");
  writeFileSync(web, readFileSync(web, "utf8").replace("replicas: 2", "replicas: 3"));
  writeFileSync(join(repo, "apps/shop/limits.yaml"), limits);
  git("-c", "user.name=demo", "-c", "user.email=demo@undrift.dev", "add", ".");
  git(
    "-c",
    "user.name=demo",
    "-c",
    "user.email=demo@undrift.dev",
    "commit",
    "-qm",
    "shop: three replicas, rate limits",
  );
  undrift("preview", "--target", "shop", "--base", "main", "--head", "more-replicas");
} finally {
  rmSync(repo, { recursive: true, force: true });
}
console.log("\nThe cluster keeps running for you to explore; `npm run cluster:down` stops it.");
