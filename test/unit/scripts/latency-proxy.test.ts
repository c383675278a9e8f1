// The latency proxy the test cluster puts in front of the API server: each chunk is held half the round trip in
// each direction. Real loopback sockets; the proxy's clock (setTimeout, Date) is vitest's fake one, so the hold is
// read off that clock and the timers it set, never measured.
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { type LatencyProxy, startLatencyProxy } from "../../../scripts/cluster/latency-proxy.ts";

let upstream: Server | undefined;
let proxy: LatencyProxy | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const socket of sockets) socket.destroy();
  await proxy?.close();
  upstream?.close();
});

/** A real loopback round trip, so whatever I/O was on its way has landed. */
async function settleIo(port: number): Promise<void> {
  const probe = createConnection({ host: "127.0.0.1", port });
  sockets.push(probe);
  await once(probe, "connect");
  probe.destroy();
}

it("holds each chunk half the round trip in each direction, and passes it on once that much time has gone", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  // The delays the proxy sets its timers to, announced as they are set: no poll for the proxy to have the chunk.
  const scheduled: number[] = [];
  const waiters: Array<() => void> = [];
  const fakeSetTimeout = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number) => {
    scheduled.push(ms ?? 0);
    for (const wake of waiters.splice(0)) wake();
    return fakeSetTimeout(fn, ms);
  }) as typeof setTimeout);
  const nextTimer = () => new Promise<number>((resolve) => waiters.push(() => resolve(scheduled.at(-1)!)));

  let first: Socket | undefined;
  const accepted = new Promise<Socket>((resolve) => {
    upstream = createServer((socket) => {
      sockets.push(socket);
      // The first connection is the proxy's; later ones are settleIo's.
      if (first) return;
      first = socket;
      resolve(socket);
    });
  });
  upstream!.listen(0, "127.0.0.1");
  await once(upstream!, "listening");
  const upstreamPort = (upstream!.address() as { port: number }).port;
  proxy = await startLatencyProxy({ target: `127.0.0.1:${upstreamPort}`, rttMs: 60_000 });
  const client = createConnection({ host: "127.0.0.1", port: proxy.port });
  sockets.push(client);
  await once(client, "connect");
  const server = await accepted;
  const toServer: string[] = [];
  const toClient: string[] = [];
  server.on("data", (chunk: Buffer) => toServer.push(chunk.toString()));
  client.on("data", (chunk: Buffer) => toClient.push(chunk.toString()));

  // Client to server: held 30 s of the proxy's clock, not a moment less.
  let timer = nextTimer();
  client.write("ping");
  expect(await timer).toBe(30_000);
  await vi.advanceTimersByTimeAsync(29_999);
  await settleIo(upstreamPort);
  expect(toServer).toEqual([]);
  let arrived = once(server, "data");
  await vi.advanceTimersByTimeAsync(1);
  await arrived;
  expect(toServer).toEqual(["ping"]);

  // Server to client, the same.
  timer = nextTimer();
  server.write("pong");
  expect(await timer).toBe(30_000);
  await vi.advanceTimersByTimeAsync(29_999);
  await settleIo(upstreamPort);
  expect(toClient).toEqual([]);
  arrived = once(client, "data");
  await vi.advanceTimersByTimeAsync(1);
  await arrived;
  expect(toClient).toEqual(["pong"]);
  expect(proxy.connections).toBe(1);
});
