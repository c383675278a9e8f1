import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRange, freePort } from "../../../scripts/cluster/processes.ts";

describe("the test cluster's port choice", () => {
  it("picks ports below the ephemeral range, which outbound connections cannot take before the component binds", async () => {
    const [low] = ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(low);
  });

  it("picks a port a component can then listen on", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
