// KubeConfig loaded without client-node's generated API still does all a kubeconfig can ask:
// each case runs in a fresh process, so the stand-ins of kube-config-class.ts are in effect
// (in this process another test may have loaded the whole client already).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const loader = pathToFileURL(resolve(root, "src/live/load-kubeconfig.ts")).href;
const b64 = (text: string) => Buffer.from(text).toString("base64");
// A JWT whose payload says it expires in 2100: OIDC uses it as it is, without asking the issuer.
const idToken = [b64('{"alg":"none"}'), b64('{"exp":4102444800}'), "sig"].join(".");
const credential = JSON.stringify({
  apiVersion: "client.authentication.k8s.io/v1",
  kind: "ExecCredential",
  status: { token: "from-exec-plugin" },
});

let dir: string;
let kubeconfig: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "undrift-kubeconfig-class-"));
  kubeconfig = join(dir, "config");
  const server = { server: "https://127.0.0.1:6443", "certificate-authority-data": b64("the-ca") };
  const users = {
    exec: {
      exec: {
        apiVersion: "client.authentication.k8s.io/v1",
        command: process.execPath,
        args: ["-e", `process.stdout.write(${JSON.stringify(credential)})`],
        interactiveMode: "Never",
      },
    },
    certs: { "client-certificate-data": b64("the-cert"), "client-key-data": b64("the-key") },
    oidc: {
      "auth-provider": {
        name: "oidc",
        config: { "client-id": "undrift", "id-token": idToken, "idp-issuer-url": "https://127.0.0.1:1" },
      },
    },
    token: { token: "plain-token" },
  };
  await writeFile(
    kubeconfig,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        { name: "direct", cluster: server },
        { name: "proxied", cluster: { ...server, "proxy-url": "http://127.0.0.1:3128" } },
      ],
      users: Object.entries(users).map(([name, user]) => ({ name, user })),
      contexts: [
        ...Object.keys(users).map((name) => ({ name, context: { cluster: "direct", user: name } })),
        { name: "proxied", context: { cluster: "proxied", user: "token" } },
      ],
      "current-context": "token",
    }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs `body` (ES module code with `kc`, the kubeconfig's `context`) in a fresh Node; its JSON output. */
async function inFreshProcess(context: string, body: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const script = `import { loadKubeconfig } from ${JSON.stringify(loader)};
const kc = loadKubeconfig(${JSON.stringify({ kubeconfig, context })});
const opts = {};
${body}`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout);
}

const headersAndTls = `await kc.applyToHTTPSOptions(opts);
console.log(JSON.stringify({ authorization: opts.headers?.Authorization, ca: opts.ca?.toString(),
  cert: opts.cert?.toString(), key: opts.key?.toString() }));`;

describe("KubeConfig without the generated API", { timeout: 60_000 }, () => {
  it("runs an exec credential plugin and sends its token", async () => {
    expect(await inFreshProcess("exec", headersAndTls)).toEqual({
      authorization: "Bearer from-exec-plugin",
      ca: "the-ca",
    });
  });

  it("presents client certificates and trusts the cluster's certificate-authority-data", async () => {
    expect(await inFreshProcess("certs", headersAndTls)).toEqual({ ca: "the-ca", cert: "the-cert", key: "the-key" });
  });

  it("sends an OIDC id-token that has not expired", async () => {
    expect(await inFreshProcess("oidc", headersAndTls)).toEqual({ authorization: `Bearer ${idToken}`, ca: "the-ca" });
  });

  it("reaches a cluster through its proxy-url with client-node's proxy agent", async () => {
    const body = `await kc.applyToHTTPSOptions(opts);
const { HttpsProxyAgent } = await import("hpagent");
console.log(JSON.stringify({ proxyAgent: opts.agent instanceof HttpsProxyAgent, proxy: String(opts.agent.proxy) }));`;
    expect(await inFreshProcess("proxied", body)).toEqual({ proxyAgent: true, proxy: "http://127.0.0.1:3128/" });
  });

  it("still makes client-node's API clients, with undici for their TLS", async () => {
    const body = `const { CoreV1Api } = await import("@kubernetes/client-node");
const api = kc.makeApiClient(CoreV1Api);
const request = { headers: {}, setHeaderParam(k, v) { this.headers[k] = v; }, setDispatcher(d) { this.dispatcher = d; } };
await kc.applySecurityAuthentication(request);
const { Agent } = await import("undici");
console.log(JSON.stringify({ api: typeof api.listNamespace, dispatcher: request.dispatcher instanceof Agent }));`;
    expect(await inFreshProcess("certs", body)).toEqual({ api: "function", dispatcher: true });
  });

  it("loads a pod's service account in the cluster", async () => {
    const script = `import { loadKubeconfig } from ${JSON.stringify(loader)};
const kc = loadKubeconfig({ inCluster: true });
console.log(JSON.stringify({ server: kc.getCurrentCluster().server, user: kc.getCurrentUser().authProvider }));`;
    const env = { ...process.env, KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: root, env });
    expect(JSON.parse(stdout)).toEqual({
      server: "https://10.96.0.1:443",
      user: { name: "tokenFile", config: { tokenFile: "/var/run/secrets/kubernetes.io/serviceaccount/token" } },
    });
  });
});
