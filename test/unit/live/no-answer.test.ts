// An API server address where something accepts the connection and never answers (a hung
// apiserver, a proxy holding the request): the error says so, with the bound it waited,
// rather than calling a server that took the connection "unreachable".
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterNoAnswerError } from "../../../src/live/errors.ts";
import { KubeClient } from "../../../src/live/kube-client.ts";
import { kubeConfigClass } from "../../../src/live/kube-config-class.ts";
import { isPermanent } from "../../../src/model/undrift-error.ts";

describe("a request the server never answers", () => {
  let server: Server;
  const sockets = new Set<Socket>();
  let address: string;
  beforeAll(async () => {
    // Reads the request and says nothing, for as long as the client waits.
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.resume();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    address = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });

  it('fails with "no answer within" the bound, not "unreachable", and a retry may pass', async () => {
    const kc = new (kubeConfigClass())();
    kc.loadFromOptions({
      // client-node refuses plain http unless TLS verification is off: this server speaks none.
      clusters: [{ name: "hung", server: address, skipTLSVerify: true }],
      users: [{ name: "u", token: "t" }],
      contexts: [{ name: "x", cluster: "hung", user: "u" }],
      currentContext: "x",
    });
    const client = new KubeClient(kc, { timeoutMs: 300 });
    const error = await client.send({ method: "GET", path: "/api" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClusterNoAnswerError);
    expect((error as Error).message).toBe(`cluster hung at ${address}: no answer within 0.3 s (GET /api)`);
    expect(isPermanent(error)).toBe(false);
  });
});
